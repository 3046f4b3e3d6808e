package io.fleetlake.servers.mqtt;

import static java.util.Objects.requireNonNull;
import static org.awaitility.Awaitility.await;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A test-only MQTT 5 client that reconnects the way many device stacks do (paho-mqtt 2.x among them): it resumes its
 * persistent session ({@code clean start} off) and then writes every QoS 1 PUBLISH it queued while the broker was away,
 * all at once, without waiting for a PUBACK and ignoring the Receive Maximum the broker sent in the CONNACK. The HiveMQ
 * MQTT client cannot do that (it keeps publishes beyond the Receive Maximum in the client), so this one writes the
 * packets itself over a plain socket, which also makes the flood deterministic: every packet is in the socket before
 * the first acknowledgement is read.
 *
 * <p>It authenticates with a user name and password, as every client of the fleet's brokers must.
 *
 * <p>A reader thread records every PUBACK (packet identifier and reason code) and the broker's DISCONNECT, if any, so
 * that a test can demand that the broker acknowledged every message and did not disconnect the client. Not
 * thread-safe: one test thread publishes.
 */
public final class FloodingMqttClient implements AutoCloseable {
    /** MQTT 5 reason code of a PUBACK for a message that was accepted and had subscribers. */
    public static final int SUCCESS = 0x00;

    /** MQTT 5 reason code of a DISCONNECT for a client that had more QoS 1 publishes in flight than allowed. */
    public static final int RECEIVE_MAXIMUM_EXCEEDED = 0x93;

    /** The most packet identifiers MQTT has: no client can have more QoS 1 publishes unacknowledged. */
    public static final int LARGEST_PACKET_IDENTIFIER = 65_535;

    private static final int CONNECT = 0x10;
    private static final int CONNACK = 0x20;
    private static final int PUBLISH_QOS_1 = 0x32;
    private static final int PUBACK = 0x40;
    private static final int DISCONNECT = 0xE0;
    private static final int PROPERTY_SESSION_EXPIRY_INTERVAL = 0x11;
    private static final int PROPERTY_RECEIVE_MAXIMUM = 0x21;
    /** The connection ended without a DISCONNECT packet. */
    private static final int CLOSED_WITHOUT_DISCONNECT = -1;

    private final Socket socket;
    private final OutputStream output;
    private final ConnectionAcknowledgement connectionAcknowledgement;
    private final Map<Integer, Integer> acknowledgements = new ConcurrentHashMap<>();
    private final CompletableFuture<Integer> disconnected = new CompletableFuture<>();
    private int nextPacketIdentifier = 1;

    private FloodingMqttClient(Socket socket, ConnectionAcknowledgement connectionAcknowledgement) throws IOException {
        this.socket = socket;
        this.output = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
        this.connectionAcknowledgement = connectionAcknowledgement;
        Thread reader = new Thread(this::readUntilClosed, "flooding-mqtt-client-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Connects with {@code clean start} off, so that the broker resumes the session of {@code clientId} if it has one,
     * and waits for the CONNACK.
     *
     * @throws IllegalStateException if the broker refused the connection
     */
    public static FloodingMqttClient connect(
            String host,
            int port,
            String clientId,
            String username,
            String password,
            Duration sessionExpiry,
            Duration timeout)
            throws IOException {
        requireNonNull(host, "host is null");
        requireNonNull(clientId, "clientId is null");
        requireNonNull(username, "username is null");
        requireNonNull(password, "password is null");
        requireNonNull(sessionExpiry, "sessionExpiry is null");
        requireNonNull(timeout, "timeout is null");
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(host, port), Math.toIntExact(timeout.toMillis()));
            socket.setTcpNoDelay(true);
            socket.getOutputStream().write(connectPacket(clientId, username, password, sessionExpiry));
            socket.getOutputStream().flush();
            socket.setSoTimeout(Math.toIntExact(timeout.toMillis()));
            DataInputStream input = new DataInputStream(socket.getInputStream());
            int type = input.readUnsignedByte();
            byte[] body = input.readNBytes(readVariableByteInteger(input));
            if (type != CONNACK || body.length < 2) {
                throw new IllegalStateException("Expected a CONNACK from " + host + ":" + port + ", got packet type 0x"
                        + Integer.toHexString(type));
            }
            ConnectionAcknowledgement acknowledgement = ConnectionAcknowledgement.parse(body);
            if (acknowledgement.reasonCode() != SUCCESS) {
                throw new IllegalStateException("The broker refused the connection of " + clientId + ": reason code 0x"
                        + Integer.toHexString(acknowledgement.reasonCode()));
            }
            socket.setSoTimeout(0);
            return new FloodingMqttClient(socket, acknowledgement);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    public ConnectionAcknowledgement connectionAcknowledgement() {
        return connectionAcknowledgement;
    }

    /**
     * Writes every message as a QoS 1 PUBLISH at once, then waits until each has a PUBACK, the broker disconnected this
     * client, or {@code timeout} passed.
     *
     * @param messages at most {@value #LARGEST_PACKET_IDENTIFIER}, the packet identifiers MQTT has
     */
    public Outcome flood(List<Message> messages, Duration timeout) {
        requireNonNull(messages, "messages is null");
        requireNonNull(timeout, "timeout is null");
        if (messages.size() > LARGEST_PACKET_IDENTIFIER) {
            throw new IllegalArgumentException(messages.size() + " messages cannot be in flight at once: MQTT has "
                    + LARGEST_PACKET_IDENTIFIER + " packet identifiers");
        }
        acknowledgements.clear();
        List<Integer> identifiers = new ArrayList<>(messages.size());
        try {
            for (Message message : messages) {
                int identifier = nextPacketIdentifier();
                identifiers.add(identifier);
                output.write(publishPacket(message, identifier));
            }
            output.flush();
        } catch (IOException e) {
            // The broker closed the connection while the flood was being written; the reader records why (its
            // DISCONNECT reason code, or the closed connection), which ends the wait below.
        }
        try {
            await().atMost(timeout)
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> acknowledgements.keySet().containsAll(identifiers) || disconnected.isDone());
        } catch (ConditionTimeoutException e) {
            // Reported through the outcome: the acknowledgements that did arrive and no disconnection.
        }
        return new Outcome(messages.size(), Map.copyOf(acknowledgements), disconnectReason());
    }

    private OptionalInt disconnectReason() {
        return disconnected.isDone() ? OptionalInt.of(disconnected.join()) : OptionalInt.empty();
    }

    private int nextPacketIdentifier() {
        int identifier = nextPacketIdentifier;
        nextPacketIdentifier = identifier == LARGEST_PACKET_IDENTIFIER ? 1 : identifier + 1;
        return identifier;
    }

    private void readUntilClosed() {
        try {
            DataInputStream input = new DataInputStream(socket.getInputStream());
            while (true) {
                int type = input.readUnsignedByte();
                byte[] body = input.readNBytes(readVariableByteInteger(input));
                if ((type & 0xF0) == PUBACK && body.length >= 2) {
                    int identifier = ((body[0] & 0xFF) << 8) | (body[1] & 0xFF);
                    // MQTT 5 leaves the reason code out when it is "success" and there are no properties.
                    acknowledgements.put(identifier, body.length > 2 ? body[2] & 0xFF : SUCCESS);
                } else if (type == DISCONNECT) {
                    disconnected.complete(body.length > 0 ? body[0] & 0xFF : SUCCESS);
                    return;
                }
            }
        } catch (EOFException | SocketException e) {
            disconnected.complete(CLOSED_WITHOUT_DISCONNECT);
        } catch (IOException e) {
            disconnected.completeExceptionally(new UncheckedIOException(e));
        }
    }

    /** Closes the socket without a DISCONNECT, as a device that loses its connection; the session stays. */
    @Override
    public void close() throws IOException {
        socket.close();
    }

    private static byte[] connectPacket(String clientId, String username, String password, Duration sessionExpiry) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        writeString(body, "MQTT");
        body.write(5);
        body.write(0xC0); // connect flags: user name and password, clean start off, no will
        writeTwoByteInteger(body, 0); // keep alive off: the flood is over long before any keep alive would matter
        body.write(5); // properties: the session expiry interval only
        body.write(PROPERTY_SESSION_EXPIRY_INTERVAL);
        long seconds = sessionExpiry.toSeconds();
        body.write((int) (seconds >>> 24) & 0xFF);
        body.write((int) (seconds >>> 16) & 0xFF);
        body.write((int) (seconds >>> 8) & 0xFF);
        body.write((int) seconds & 0xFF);
        writeString(body, clientId);
        writeString(body, username);
        writeString(body, password);
        return packet(CONNECT, body);
    }

    private static byte[] publishPacket(Message message, int identifier) {
        ByteArrayOutputStream body = new ByteArrayOutputStream(message.payload().length + 64);
        writeString(body, message.topic());
        writeTwoByteInteger(body, identifier);
        body.write(0); // no properties
        body.writeBytes(message.payload());
        return packet(PUBLISH_QOS_1, body);
    }

    private static byte[] packet(int type, ByteArrayOutputStream body) {
        ByteArrayOutputStream packet = new ByteArrayOutputStream(body.size() + 5);
        packet.write(type);
        int remaining = body.size();
        do {
            int digit = remaining % 128;
            remaining /= 128;
            packet.write(remaining > 0 ? digit | 0x80 : digit);
        } while (remaining > 0);
        packet.writeBytes(body.toByteArray());
        return packet.toByteArray();
    }

    private static void writeString(ByteArrayOutputStream body, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        writeTwoByteInteger(body, bytes.length);
        body.writeBytes(bytes);
    }

    private static void writeTwoByteInteger(ByteArrayOutputStream body, int value) {
        body.write((value >>> 8) & 0xFF);
        body.write(value & 0xFF);
    }

    private static int readVariableByteInteger(DataInputStream input) throws IOException {
        int value = 0;
        for (int shift = 0; shift <= 21; shift += 7) {
            int digit = input.readUnsignedByte();
            value |= (digit & 0x7F) << shift;
            if ((digit & 0x80) == 0) {
                return value;
            }
        }
        throw new IOException("Malformed remaining length in a packet from the broker");
    }

    /** A message the device queued: its topic and payload. */
    public record Message(String topic, byte[] payload) {
        public Message {
            requireNonNull(topic, "topic is null");
            requireNonNull(payload, "payload is null");
        }
    }

    /**
     * The broker's CONNACK.
     *
     * @param sessionPresent whether the broker resumed the client's persistent session
     * @param reasonCode 0 when the connection was accepted
     * @param receiveMaximum the most QoS 1 publishes the broker allows in flight (65,535 when the CONNACK leaves it out)
     */
    public record ConnectionAcknowledgement(boolean sessionPresent, int reasonCode, int receiveMaximum) {
        static ConnectionAcknowledgement parse(byte[] body) {
            boolean sessionPresent = (body[0] & 0x01) != 0;
            int reasonCode = body[1] & 0xFF;
            int receiveMaximum = LARGEST_PACKET_IDENTIFIER;
            int position = 2;
            if (position < body.length) {
                // Properties: a variable byte integer length, then identifier and value pairs.
                int length = 0;
                int shift = 0;
                int digit;
                do {
                    digit = body[position++] & 0xFF;
                    length |= (digit & 0x7F) << shift;
                    shift += 7;
                } while ((digit & 0x80) != 0);
                int end = position + length;
                while (position < end) {
                    int identifier = body[position++] & 0xFF;
                    if (identifier == PROPERTY_RECEIVE_MAXIMUM) {
                        receiveMaximum = ((body[position] & 0xFF) << 8) | (body[position + 1] & 0xFF);
                    }
                    position += propertyLength(identifier, body, position);
                }
            }
            return new ConnectionAcknowledgement(sessionPresent, reasonCode, receiveMaximum);
        }

        /** Bytes of the value of a CONNACK property, by the type MQTT 5 gives each identifier. */
        private static int propertyLength(int identifier, byte[] body, int position) {
            return switch (identifier) {
                case 0x24, 0x25, 0x28, 0x29, 0x2A ->
                    1; // maximum QoS, retain / wildcard / identifier / shared available
                case 0x13, 0x21, 0x22 -> 2; // server keep alive, receive maximum, topic alias maximum
                case 0x11, 0x27 -> 4; // session expiry interval, maximum packet size
                case 0x12, 0x15, 0x16, 0x1A, 0x1C, 0x1F -> 2 + twoByteInteger(body, position); // strings, binary data
                case 0x26 -> {
                    // user property: two strings
                    int name = 2 + twoByteInteger(body, position);
                    yield name + 2 + twoByteInteger(body, position + name);
                }
                default ->
                    throw new IllegalStateException("Unexpected CONNACK property 0x" + Integer.toHexString(identifier));
            };
        }

        private static int twoByteInteger(byte[] body, int position) {
            return ((body[position] & 0xFF) << 8) | (body[position + 1] & 0xFF);
        }
    }

    /**
     * What came of a flood.
     *
     * @param sent how many PUBLISH packets were written
     * @param acknowledgements reason code of each PUBACK, by packet identifier
     * @param disconnectReason the reason code of the broker's DISCONNECT ({@code -1}: closed without one); empty while
     *     the connection is up
     */
    public record Outcome(int sent, Map<Integer, Integer> acknowledgements, OptionalInt disconnectReason) {
        public Outcome {
            acknowledgements = Map.copyOf(requireNonNull(acknowledgements, "acknowledgements is null"));
            requireNonNull(disconnectReason, "disconnectReason is null");
        }

        /** PUBACKs with a reason code other than {@link #SUCCESS}, for assertions' messages. */
        public Map<Integer, Integer> refused() {
            Map<Integer, Integer> refused = new TreeMap<>();
            acknowledgements.forEach((identifier, reason) -> {
                if (reason != SUCCESS) {
                    refused.put(identifier, reason);
                }
            });
            return refused;
        }

        @Override
        public String toString() {
            return sent + " sent, " + acknowledgements.size() + " acknowledged ("
                    + refused().size()
                    + " with an error reason code), "
                    + (disconnectReason.isEmpty()
                            ? "still connected"
                            : disconnectReason.getAsInt() == CLOSED_WITHOUT_DISCONNECT
                                    ? "connection closed by the broker"
                                    : "disconnected by the broker with reason code 0x"
                                            + Integer.toHexString(disconnectReason.getAsInt()));
        }
    }
}
