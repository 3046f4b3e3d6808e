package io.fleetlake.servers.mqtt;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.common.config.ConfigSource;
import java.io.StringReader;
import java.net.URL;
import java.nio.file.Path;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.xml.sax.InputSource;

class HiveMqConfigurationTest {
    private static final MqttBrokerConfig CONFIG =
            MqttBrokerConfig.from(ConfigSource.of(Map.of("mqtt.port", "11883", "mqtt.data-dir", "/data/mqtt")));

    @Test
    void listenerIsBoundToTheConfiguredHostAndPort() throws Exception {
        Document document = parse(HiveMqConfiguration.render(CONFIG));

        assertThat(valueAt(document, "/hivemq/listeners/tcp-listener/port")).isEqualTo("11883");
        assertThat(valueAt(document, "/hivemq/listeners/tcp-listener/bind-address"))
                .isEqualTo("127.0.0.1");
        assertThat(valueAt(document, "/hivemq/listeners/tcp-listener/name")).isEqualTo("tcp");
        assertThat(valueAt(document, "count(/hivemq/listeners/*)")).isEqualTo("1");
        assertThat(valueAt(document, "/hivemq/restrictions/max-connections")).isEqualTo("10000");
    }

    @Test
    void tlsListenerServesTheKeyStoreOnTheSameAddress() throws Exception {
        MqttBrokerConfig withTls = MqttBrokerConfig.from(
                ConfigSource.of(Map.of("mqtt.port", "11883", "mqtt.tls-port", "18883", "mqtt.data-dir", "/data/mqtt")));
        String rendered = HiveMqConfiguration.render(
                withTls,
                java.util.Optional.of(
                        new HiveMqConfiguration.KeyStoreFile(Path.of("/data/mqtt/conf/tls.p12"), "p<w&")));
        Document document = parse(rendered);

        assertThat(valueAt(document, "/hivemq/listeners/tls-tcp-listener/port")).isEqualTo("18883");
        assertThat(valueAt(document, "/hivemq/listeners/tls-tcp-listener/bind-address"))
                .isEqualTo("127.0.0.1");
        assertThat(valueAt(document, "/hivemq/listeners/tls-tcp-listener/name")).isEqualTo("tls");
        assertThat(valueAt(document, "/hivemq/listeners/tls-tcp-listener/tls/keystore/path"))
                .isEqualTo("/data/mqtt/conf/tls.p12");
        assertThat(valueAt(document, "/hivemq/listeners/tls-tcp-listener/tls/keystore/password"))
                .isEqualTo("p<w&");
        SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI)
                .newSchema(HiveMqConfigurationTest.class.getClassLoader().getResource("config.xsd"))
                .newValidator()
                .validate(new StreamSource(new StringReader(rendered)));
    }

    @Test
    void queuesAreLargeAndPersistedToFiles() throws Exception {
        Document document = parse(HiveMqConfiguration.render(CONFIG));

        assertThat(valueAt(document, "/hivemq/mqtt/queued-messages/max-queue-size"))
                .isEqualTo("1000000");
        assertThat(valueAt(document, "/hivemq/mqtt/session-expiry/max-interval"))
                .isEqualTo("604800");
        assertThat(valueAt(document, "/hivemq/persistence/mode")).isEqualTo("file");
        assertThat(valueAt(document, "/hivemq/anonymous-usage-statistics/enabled"))
                .isEqualTo("false");
    }

    @Test
    void packetSizeReceiveMaximumAndPersistenceAreConfigured() throws Exception {
        MqttBrokerConfig inMemory = MqttBrokerConfig.from(ConfigSource.of(Map.of(
                "mqtt.port", "11883",
                "mqtt.data-dir", "/data/mqtt",
                "mqtt.max-packet-size", "4096",
                "mqtt.server-receive-maximum", "500",
                "mqtt.persistence", "in-memory")));

        Document document = parse(HiveMqConfiguration.render(inMemory));

        assertThat(valueAt(document, "/hivemq/mqtt/packets/max-packet-size")).isEqualTo("4096");
        assertThat(valueAt(document, "/hivemq/mqtt/receive-maximum/server-receive-maximum"))
                .isEqualTo("500");
        assertThat(valueAt(document, "/hivemq/persistence/mode")).isEqualTo("in-memory");
        SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI)
                .newSchema(HiveMqConfigurationTest.class.getClassLoader().getResource("config.xsd"))
                .newValidator()
                .validate(new StreamSource(new StringReader(HiveMqConfiguration.render(inMemory))));
    }

    /**
     * Devices flood on reconnect: the default configuration lets an MQTT 5 client have as many QoS 1 publishes in flight
     * as MQTT has packet identifiers, so that a device re-sending its whole queue at once is not disconnected, and
     * HiveMQ's schema accepts that value.
     */
    @Test
    void defaultReceiveMaximumIsTheLargestMqttAllows() throws Exception {
        MqttBrokerConfig defaults =
                MqttBrokerConfig.from(ConfigSource.of(Map.of(MqttBrokerConfig.DATA_DIRECTORY, "/data")));

        String xml = HiveMqConfiguration.render(defaults);

        assertThat(valueAt(parse(xml), "/hivemq/mqtt/receive-maximum/server-receive-maximum"))
                .isEqualTo("65535");
        assertThat(valueAt(parse(xml), "/hivemq/mqtt/packets/max-packet-size")).isEqualTo("65536");
        SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI)
                .newSchema(HiveMqConfigurationTest.class.getClassLoader().getResource("config.xsd"))
                .newValidator()
                .validate(new StreamSource(new StringReader(xml)));
    }

    @Test
    void hostIsEscaped() throws Exception {
        MqttBrokerConfig config = MqttBrokerConfig.from(
                ConfigSource.of(Map.of("mqtt.host", "a<b&c", "mqtt.port", "11883", "mqtt.data-dir", "/data/mqtt")));

        assertThat(valueAt(parse(HiveMqConfiguration.render(config)), "/hivemq/listeners/tcp-listener/bind-address"))
                .isEqualTo("a<b&c");
    }

    @Test
    void matchesTheSchemaHiveMqValidatesAgainst() throws Exception {
        URL schema = HiveMqConfigurationTest.class.getClassLoader().getResource("config.xsd");
        assertThat(schema).as("config.xsd in the HiveMQ jar").isNotNull();

        SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI)
                .newSchema(schema)
                .newValidator()
                .validate(new StreamSource(new StringReader(HiveMqConfiguration.render(CONFIG))));
    }

    private static Document parse(String xml) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
    }

    private static String valueAt(Document document, String expression) throws Exception {
        return XPathFactory.newInstance().newXPath().evaluate(expression, document);
    }
}
