package io.outboxrelay.adoption.payments;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.math.BigDecimal;
import java.util.Map;

@Path("payments")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class PaymentsResource {

    public record PaymentRequest(String payer, BigDecimal amount, boolean refuseAfterAppend) {
    }

    @Inject
    Payments payments;

    @POST
    public Response pay(PaymentRequest request) {
        try {
            return Response.status(201).entity(payments.pay(request.payer(), request.amount(), request.refuseAfterAppend()))
                    .build();
        } catch (Payments.Refused refused) {
            return Response.status(409).entity(Map.of("refused", refused.getMessage())).build();
        }
    }
}
