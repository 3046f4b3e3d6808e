package io.fleetlake.model.codec;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * Checks every length an Avro binary body declares against the bytes that remain, before Avro's decoder reads it.
 * Avro's decoder allocates a string or bytes buffer, and an array or map, of the size the body declares before it reads
 * the contents; its only bound is a per-JVM system property near {@code Integer.MAX_VALUE}. A 15-byte payload that
 * declares a string of two billion bytes is an {@link OutOfMemoryError}, not a corrupt body.
 *
 * <p>The check walks the <b>writer</b> schema over the body with Avro's own primitives (a direct binary decoder over the
 * body, which reads no byte ahead, so the bytes that remain are exact), generically: records, unions, enums, fixed,
 * strings, bytes, arrays, maps and every primitive, so that a later schema version is covered without a change here.
 * It refuses:
 *
 * <ul>
 *   <li>a negative string or bytes length, or one larger than the bytes that remain;
 *   <li>a fixed or a float or double value longer than the bytes that remain;
 *   <li>a union branch or enum symbol index outside the schema's;
 *   <li>an array or map block whose item count cannot fit the bytes that remain: each item takes at least its
 *       schema's smallest encoding; items whose smallest encoding is empty (null, an empty record) are limited to
 *       {@value #MAX_EMPTY_ITEMS} per body; a negative block byte size larger than the bytes that remain;
 *   <li>values nested deeper than {@value #MAX_DEPTH} levels (a recursive schema), before any recursion could
 *       exhaust the stack.
 * </ul>
 *
 * A body that passes allocates at most a few times its own size when Avro decodes it. Not thread-safe (it reuses a
 * decoder); one per codec.
 */
final class DeclaredLengths {
    /** Deepest nesting of records, unions, arrays and maps; the released Position schemas have 2 levels. */
    static final int MAX_DEPTH = 64;
    /** Most items of an empty encoding (null, a record without fields) in one body; each costs Avro an object slot. */
    static final long MAX_EMPTY_ITEMS = 4_096;

    private BinaryDecoder reuse;

    /**
     * Empty when every length the body declares fits, else why not: the field, the declared length and the bytes that
     * remain, for the rejection's detail.
     *
     * @param offset where the body starts in the payload
     */
    Optional<String> check(Schema writer, byte[] payload, int offset) {
        ByteArrayInputStream body = new ByteArrayInputStream(payload, offset, payload.length - offset);
        reuse = DecoderFactory.get().directBinaryDecoder(body, reuse);
        Walk walk = new Walk(body, reuse);
        try {
            walk.value(writer, "", 0);
            return Optional.empty();
        } catch (Violation violation) {
            return Optional.of(violation.getMessage());
        } catch (EOFException e) {
            return Optional.of(walk.where() + " ends before its value is complete (the body is truncated)");
        } catch (IOException e) {
            // Avro's InvalidNumberEncodingException: a varint longer than its type allows.
            return Optional.of(walk.where() + " is not a valid Avro value: " + e.getMessage());
        }
    }

    /** One pass over one body. */
    private static final class Walk {
        private final ByteArrayInputStream body;
        private final BinaryDecoder decoder;
        private final Map<Schema, Long> minimumSizes = new IdentityHashMap<>();
        private String path = "";
        private long emptyItems;

        Walk(ByteArrayInputStream body, BinaryDecoder decoder) {
            this.body = body;
            this.decoder = decoder;
        }

        String where() {
            return path.isEmpty() ? "the body" : "field " + path;
        }

        void value(Schema schema, String at, int depth) throws IOException, Violation {
            path = at;
            if (depth > MAX_DEPTH) {
                throw new Violation(where() + " is nested deeper than " + MAX_DEPTH + " levels");
            }
            switch (schema.getType()) {
                case RECORD -> {
                    for (Schema.Field field : schema.getFields()) {
                        value(field.schema(), at.isEmpty() ? field.name() : at + "." + field.name(), depth + 1);
                    }
                }
                case UNION -> {
                    int branch = decoder.readInt();
                    int branches = schema.getTypes().size();
                    if (branch < 0 || branch >= branches) {
                        throw new Violation(
                                where() + " names union branch " + branch + " of a union of " + branches + " types");
                    }
                    value(schema.getTypes().get(branch), at, depth + 1);
                }
                case ENUM -> {
                    int symbol = decoder.readInt();
                    int symbols = schema.getEnumSymbols().size();
                    if (symbol < 0 || symbol >= symbols) {
                        throw new Violation(
                                where() + " names enum symbol " + symbol + " of an enum of " + symbols + " symbols");
                    }
                }
                case STRING -> skip(decoder.readLong(), "a string");
                case BYTES -> skip(decoder.readLong(), "a bytes value");
                case FIXED -> skip(schema.getFixedSize(), "a fixed value");
                case ARRAY -> collection(schema.getElementType(), null, at + "[]", depth);
                case MAP -> collection(schema.getValueType(), Schema.create(Schema.Type.STRING), at + "{}", depth);
                case FLOAT -> skip(Float.BYTES, "a float");
                case DOUBLE -> skip(Double.BYTES, "a double");
                case INT -> decoder.readInt();
                case LONG -> decoder.readLong();
                case BOOLEAN -> decoder.readBoolean();
                case NULL -> {
                    // Encoded as nothing.
                }
            }
        }

        /** The blocks of an array (key null) or a map: a count, a byte size when the count is negative, the items. */
        private void collection(Schema item, Schema key, String itemPath, int depth) throws IOException, Violation {
            String collectionPath = path;
            long itemSize = minimumSize(item) + (key == null ? 0 : minimumSize(key));
            for (long count = decoder.readLong(); count != 0; count = decoder.readLong()) {
                path = collectionPath;
                if (count < 0) {
                    if (count == Long.MIN_VALUE) {
                        throw new Violation(where() + " declares a block of " + count + " items");
                    }
                    count = -count;
                    long blockBytes = decoder.readLong();
                    if (blockBytes < 0 || blockBytes > remaining()) {
                        throw new Violation(where() + " declares a block of " + blockBytes + " bytes, but "
                                + remaining() + " bytes remain");
                    }
                }
                if (itemSize == 0) {
                    if (count > MAX_EMPTY_ITEMS - emptyItems) {
                        throw new Violation(where() + " declares " + count + " items of an empty encoding; at most "
                                + MAX_EMPTY_ITEMS + " are accepted in a payload");
                    }
                    emptyItems += count;
                } else if (count > remaining() / itemSize) {
                    throw new Violation(where() + " declares " + count + " items of at least " + itemSize
                            + " bytes each, but " + remaining() + " bytes remain");
                }
                for (long i = 0; i < count; i++) {
                    if (key != null) {
                        value(key, itemPath + " key", depth + 1);
                    }
                    value(item, itemPath, depth + 1);
                }
            }
        }

        /** Skips a value of a declared length after checking it against the bytes that remain. */
        private void skip(long length, String what) throws IOException, Violation {
            if (length < 0) {
                throw new Violation(where() + " declares " + what + " of negative length " + length);
            }
            if (length > remaining()) {
                throw new Violation(where() + " declares " + what + " of " + length + " bytes, but " + remaining()
                        + " bytes remain");
            }
            decoder.skipFixed((int) length);
        }

        private long remaining() {
            return body.available();
        }

        /**
         * The fewest bytes a value of the schema takes (saturating); a record being measured counts 0 where it
         * contains itself, which only makes the bound of its arrays stricter.
         */
        private long minimumSize(Schema schema) {
            return switch (schema.getType()) {
                case NULL -> 0;
                case BOOLEAN, INT, LONG, ENUM, STRING, BYTES, ARRAY, MAP, UNION -> 1;
                case FLOAT -> Float.BYTES;
                case DOUBLE -> Double.BYTES;
                case FIXED -> schema.getFixedSize();
                case RECORD -> {
                    Long known = minimumSizes.get(schema);
                    if (known != null) {
                        yield known;
                    }
                    minimumSizes.put(schema, 0L);
                    long size = 0;
                    for (Schema.Field field : schema.getFields()) {
                        size = Math.min(Integer.MAX_VALUE, size + minimumSize(field.schema()));
                    }
                    minimumSizes.put(schema, size);
                    yield size;
                }
            };
        }
    }

    /** A declared length or index that the body cannot hold; its message is the rejection's detail. */
    private static final class Violation extends Exception {
        private static final long serialVersionUID = 1L;

        Violation(String message) {
            super(message, null, false, false);
        }
    }
}
