package io.outboxrelay.example.orders.boundary;

import io.outboxrelay.example.orders.entity.OrderLine;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Digits;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import java.math.BigDecimal;
import java.util.List;

/** The body of {@code POST /api/orders}. */
public record CreateOrderRequest(
        @NotBlank(message = "customerId is required")
        @Size(max = 100, message = "customerId is at most 100 characters")
        String customerId,

        @NotEmpty(message = "an order needs at least one line")
        @Size(max = 100, message = "an order has at most 100 lines")
        List<@NotNull(message = "a line must not be null") @Valid Line> lines) {

    public record Line(
            @NotBlank(message = "sku is required")
            @Pattern(regexp = "[A-Za-z0-9._-]{1,64}", message = "sku is 1-64 letters, digits, '.', '_' or '-'")
            String sku,

            @NotNull(message = "quantity is required")
            @Min(value = 1, message = "quantity is at least 1")
            @Max(value = 10_000, message = "quantity is at most 10000")
            Integer quantity,

            @NotNull(message = "unitPrice is required")
            @DecimalMin(value = "0.00", message = "unitPrice must not be negative")
            @DecimalMax(value = "1000000.00", message = "unitPrice is at most 1000000.00")
            @Digits(integer = 7, fraction = 2, message = "unitPrice has at most 2 decimals")
            BigDecimal unitPrice) {

        OrderLine toOrderLine() {
            return new OrderLine(sku, quantity, unitPrice);
        }
    }

    List<OrderLine> orderLines() {
        return lines.stream().map(Line::toOrderLine).toList();
    }
}
