package com.telemed.common.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The helpers a schema of a service's own uses to report issues as the built-in schemas do. */
class IssuesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void typeOfNamesEveryJsonValueAsZodDoes() throws Exception {
        assertEquals("undefined", Issues.typeOf(null));
        assertEquals("undefined", Issues.typeOf(MissingNode.getInstance()));
        assertEquals("null", Issues.typeOf(JSON.readTree("null")));
        assertEquals("string", Issues.typeOf(JSON.readTree("\"a\"")));
        assertEquals("number", Issues.typeOf(JSON.readTree("1.5")));
        assertEquals("boolean", Issues.typeOf(JSON.readTree("false")));
        assertEquals("array", Issues.typeOf(JSON.readTree("[]")));
        assertEquals("object", Issues.typeOf(JSON.readTree("{}")));
    }

    @Test
    void appendMakesALongerPathAndLeavesTheGivenOneAlone() {
        List<Object> base = List.of("member");
        assertEquals(List.of("member", "address"), Issues.append(base, "address"));
        assertEquals(List.of("member", "skus", 2, "id"), Issues.append(base, "skus", 2, "id"));
        assertEquals(List.of("member"), Issues.append(base));
        assertEquals(List.of("member"), base);
        assertEquals(List.of(0), Issues.append(List.of(), 0));
    }
}
