package io.outboxrelay.example.orders.boundary;

import io.outboxrelay.console.problem.boundary.Parameters;
import io.outboxrelay.example.orders.boundary.Orders.Outcome;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import java.util.UUID;

@Path("orders")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class OrdersResource {


    @Inject
    Orders orders;

    @POST
    public Response create(@NotNull(message = "a JSON body is required") @Valid CreateOrderRequest request,
                           @Context UriInfo uri) {
        Outcome created = orders.create(request.customerId(), request.orderLines());
        return Response.created(uri.getAbsolutePathBuilder().path(created.orderId().toString()).build())
                .entity(created)
                .build();
    }

    @GET
    @Path("{id}")
    public OrderResponse find(@PathParam("id") String id) {
        return OrderResponse.of(orders.find(orderId(id)));
    }

    @POST
    @Path("{id}/payment")
    @Consumes(MediaType.WILDCARD)
    public Outcome pay(@PathParam("id") String id) {
        return orders.pay(orderId(id));
    }

    @POST
    @Path("{id}/cancellation")
    @Consumes(MediaType.WILDCARD)
    public Outcome cancel(@PathParam("id") String id) {
        return orders.cancel(orderId(id));
    }

    private static UUID orderId(String id) {
        return Parameters.uuid("orderId", id);
    }
}
