package io.fleetlake.servers.mqtt;

import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5ConnAckException;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5PubAckException;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5SubAckException;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAckReasonCode;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5PublishResult;
import com.hivemq.client.mqtt.mqtt5.message.publish.puback.Mqtt5PubAckReasonCode;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.suback.Mqtt5SubAckReasonCode;
import java.nio.charset.StandardCharsets;

/** What an MQTT 5 broker answered: the reason codes of CONNACK, PUBACK and SUBACK, refusals included. */
final class MqttReasonCodes {
    private MqttReasonCodes() {}

    static Mqtt5ConnAckReasonCode connectRefusal(Mqtt5BlockingClient client) {
        try {
            client.connect();
        } catch (Mqtt5ConnAckException e) {
            return e.getMqttMessage().getReasonCode();
        }
        client.disconnect();
        throw new AssertionError("The broker accepted the connection");
    }

    /** The reason code of the PUBACK of a QoS 1 publish, success or refusal. */
    static Mqtt5PubAckReasonCode pubAck(Mqtt5BlockingClient client, String topic) {
        try {
            Mqtt5PublishResult result = client.toAsync()
                    .publishWith()
                    .topic(topic)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .payload("fix".getBytes(StandardCharsets.UTF_8))
                    .send()
                    .join();
            return ((Mqtt5PublishResult.Mqtt5Qos1Result) result).getPubAck().getReasonCode();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof Mqtt5PubAckException refused) {
                return refused.getMqttMessage().getReasonCode();
            }
            throw e;
        }
    }

    static Mqtt5SubAckReasonCode subAck(Mqtt5BlockingClient client, String filter) {
        try {
            return client.subscribeWith()
                    .topicFilter(filter)
                    .qos(MqttQos.AT_LEAST_ONCE)
                    .send()
                    .getReasonCodes()
                    .get(0);
        } catch (Mqtt5SubAckException e) {
            return e.getMqttMessage().getReasonCodes().get(0);
        }
    }
}
