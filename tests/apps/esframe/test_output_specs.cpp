// The CLI's --output drm option parsing ("drm:..." specs): values, the rect's embedded commas,
// and one clear error for each kind of bad input.
#include <gtest/gtest.h>

#include "apps/esframe/output_specs.hpp"

namespace esf::cli {
namespace {

TEST(DrmOutputOptions, EmptyMeansDefaults) {
  Result<DrmSinkOptions> o = parseDrmSpec("");
  ASSERT_TRUE(o.ok());
  EXPECT_TRUE(o->device.empty());
  EXPECT_TRUE(o->connector.empty());
  EXPECT_FALSE(o->plane_id || o->zpos || o->alpha || o->rect);
  EXPECT_EQ(o->buffers, 3);
  EXPECT_TRUE(o->frame);  // the kiosk default: the camera frame under the graph
}

TEST(DrmOutputOptions, FrameOnOff) {
  Result<DrmSinkOptions> off = parseDrmSpec("frame=off,zpos=2");
  ASSERT_TRUE(off.ok()) << off.error().message;
  EXPECT_FALSE(off->frame);
  Result<DrmSinkOptions> on = parseDrmSpec("rect=0,0,64,32,frame=on");
  ASSERT_TRUE(on.ok()) << on.error().message;
  EXPECT_TRUE(on->frame);
  EXPECT_EQ(on->rect->width, 64u);
}

TEST(DrmOutputOptions, EveryKey) {
  Result<DrmSinkOptions> o = parseDrmSpec(
      "connector=Virtual-1,plane=35,zpos=4,rect=16,32,257,3,device=vkms,alpha=32768,buffers=2");
  ASSERT_TRUE(o.ok()) << o.error().message;
  EXPECT_EQ(o->connector, "Virtual-1");
  EXPECT_EQ(o->device, "vkms");
  EXPECT_EQ(*o->plane_id, 35u);
  EXPECT_EQ(*o->zpos, 4u);
  EXPECT_EQ(*o->alpha, 32768u);
  EXPECT_EQ(o->buffers, 2);
  ASSERT_TRUE(o->rect.has_value());
  EXPECT_EQ(o->rect->x, 16);
  EXPECT_EQ(o->rect->y, 32);
  EXPECT_EQ(o->rect->width, 257u);
  EXPECT_EQ(o->rect->height, 3u);
}

TEST(DrmOutputOptions, RectLast) {
  Result<DrmSinkOptions> o = parseDrmSpec("rect=0,0,1,1");
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->rect->width, 1u);
  EXPECT_EQ(o->rect->height, 1u);
}

void expectError(const std::string& spec, const std::string& text) {
  Result<DrmSinkOptions> o = parseDrmSpec(spec);
  ASSERT_FALSE(o.ok()) << spec;
  EXPECT_EQ(o.error().code, ErrorCode::kInvalidArgument) << spec;
  EXPECT_NE(o.error().message.find(text), std::string::npos) << o.error().message;
  EXPECT_EQ(o.error().message.find('\n'), std::string::npos);
  EXPECT_EQ(o.error().message.rfind("--output drm: ", 0), 0u)
      << "the CLI's errors name its flag: " << o.error().message;
}

// Each spec is refused as invalid, its message naming the output as the CLI writes it
// ("--output mqtt").
void expectRefused(std::initializer_list<const char*> specs, const std::string& output) {
  for (const char* text : specs) {
    Result<OutputSpec> bad = parseOutputSpec(text);
    ASSERT_FALSE(bad.ok()) << text;
    EXPECT_EQ(bad.error().code, ErrorCode::kInvalidArgument) << text;
    EXPECT_NE(bad.error().message.find(output), std::string::npos)
        << text << ": " << bad.error().message;
  }
}

TEST(DrmOutputOptions, BadInputIsNamed) {
  expectError("colour=red", "--output drm: unknown key 'colour'");
  expectError("zpos", "--output drm: expected KEY=VALUE, got 'zpos'");
  expectError("plane=abc", "--output drm: plane 'abc': expected an integer in 0..4294967295");
  expectError("plane=0", "--output drm: plane=0 is not a plane id");
  expectError("zpos=-1", "--output drm: zpos '-1': expected an integer");
  expectError("alpha=65536", "--output drm: alpha '65536': expected an integer in 0..65535");
  expectError("rect=1,2,3", "--output drm: rect '1,2,3': expected X,Y,W,H");
  expectError("rect=1,2,3,4,5", "--output drm: rect '1,2,3,4,5': expected X,Y,W,H");
  expectError("rect=1,2,0,4", "--output drm: rect width and height must be > 0");
  expectError("rect=1,2,x,4", "--output drm: rect 'x': expected an integer");
  expectError("zpos=1,zpos=2", "--output drm: zpos= given twice");
  expectError("buffers=4", "--output drm: buffers=4: expected 2 or 3");
  expectError("connector=", "--output drm: connector= needs a value");
  expectError("zpos=1,,alpha=2", "--output drm: empty item");
  expectError("frame=yes", "--output drm: frame=yes: expected on or off");
  EXPECT_FALSE(parseDrmSpec("plane=").ok());
  EXPECT_TRUE(parseDrmSpec("zpos=2,rect=0,0,64,32").ok());
}

TEST(MqttOutputOptions, AddressAndEveryKey) {
  Result<OutputSpec> spec = parseOutputSpec(
      "mqtt://broker.lan:8884/site/cam1,qos=1,every=5,retain,queue=7,id=board-1,keepalive=30,"
      "username=u,pw=p=w,cafile=/ca.pem,cert=/c.pem,key=/k.pem,tls-version=tlsv1.3,insecure,"
      "will-topic=site/cam1/alive");
  ASSERT_TRUE(spec.ok()) << spec.error().message;
  ASSERT_EQ(spec->kind, OutputSpec::Kind::kMqtt);
  const MqttSinkOptions& o = spec->mqtt;
  EXPECT_EQ(o.host, "broker.lan");
  EXPECT_EQ(o.port, 8884);
  EXPECT_EQ(o.topic, "site/cam1");
  EXPECT_EQ(o.qos, 1);
  EXPECT_EQ(o.every, 5);
  EXPECT_TRUE(o.retain);
  EXPECT_EQ(o.queue, 7);
  EXPECT_EQ(o.id, "board-1");
  EXPECT_EQ(o.keepalive, 30);
  EXPECT_EQ(o.username, "u");
  EXPECT_EQ(o.password, "p=w");
  EXPECT_EQ(o.cafile, "/ca.pem");
  EXPECT_EQ(o.cert, "/c.pem");
  EXPECT_EQ(o.key, "/k.pem");
  EXPECT_EQ(o.tls_version, "tlsv1.3");
  EXPECT_TRUE(o.insecure);
  EXPECT_EQ(o.will_topic, "site/cam1/alive");
  EXPECT_FALSE(o.required);

  Result<MqttSinkOptions> plain = parseMqttSpec("localhost/t");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->port, 0);  // the sink picks 1883, or 8883 with TLS
  EXPECT_EQ(plain->qos, 0);
  EXPECT_FALSE(plain->retain);
}

TEST(MqttOutputOptions, HomeAssistantDiscovery) {
  Result<OutputSpec> plain = parseOutputSpec("mqtt://h/t");
  ASSERT_TRUE(plain.ok());
  EXPECT_TRUE(plain->mqtt.discovery_prefix.empty());
  Result<OutputSpec> on = parseOutputSpec("mqtt://h/t,discovery=homeassistant,state-every=30");
  ASSERT_TRUE(on.ok()) << on.error().message;
  EXPECT_EQ(on->mqtt.discovery_prefix, "homeassistant");
  EXPECT_FALSE(on->mqtt.discovery_remove);
  EXPECT_EQ(on->mqtt.discovery_state_every_s, 30);
  Result<OutputSpec> moved =
      parseOutputSpec("mqtt://h/t,discovery=homeassistant,discovery-prefix=ha/x,name=Porch cam");
  ASSERT_TRUE(moved.ok()) << moved.error().message;
  EXPECT_EQ(moved->mqtt.discovery_prefix, "ha/x");
  EXPECT_EQ(moved->mqtt.device_name, "Porch cam");
  Result<OutputSpec> remove = parseOutputSpec("mqtt://h/t,discovery=remove");
  ASSERT_TRUE(remove.ok()) << remove.error().message;
  EXPECT_EQ(remove->mqtt.discovery_prefix, "homeassistant");
  EXPECT_TRUE(remove->mqtt.discovery_remove);
}

TEST(MqttOutputOptions, BadInputIsNamed) {
  expectRefused({"mqtt:host/t",
                 "mqtt://host",
                 "mqtt://host/",
                 "mqtt:///t",
                 "mqtt://:1883/t",
                 "mqtt://h:0/t",
                 "mqtt://h:70000/t",
                 "mqtt://h:x/t",
                 "mqtt://h/a/+",
                 "mqtt://h/#",
                 "mqtt://h/t,qos=2",
                 "mqtt://h/t,every=0",
                 "mqtt://h/t,queue=0",
                 "mqtt://h/t,color=red",
                 "mqtt://h/t,,qos=1",
                 "mqtt://h/t,cert=/c.pem",
                 "mqtt://h/t,cafile=/a,cert=/c",
                 "mqtt://h/t,qos=1,qos=0",
                 "mqtt://h/t,discovery=hass",
                 "mqtt://h/t,name=Porch",
                 "mqtt://h/t,state-every=5",
                 "mqtt://h/t,discovery=homeassistant,state-every=0",
                 "mqtt://h/t,discovery=homeassistant,discovery-prefix=ha/+"},
                "--output mqtt");
}

TEST(PromOutputOptions, PathAndEvery) {
  Result<OutputSpec> spec = parseOutputSpec("prom:/var/lib/node/esframe.prom,every=15");
  ASSERT_TRUE(spec.ok()) << spec.error().message;
  ASSERT_EQ(spec->kind, OutputSpec::Kind::kProm);
  EXPECT_EQ(spec->prom.path, "/var/lib/node/esframe.prom");
  EXPECT_EQ(spec->prom.every_s, 15);
  Result<PromSinkOptions> plain = parsePromSpec("x.prom");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->every_s, 5);
  expectRefused(
      {"prom", "prom:", "prom:x,every=", "prom:x,every=-1", "prom:x,often=1", "prom:x,every=86401"},
      "--output prom");
}

TEST(HttpOutputOptions, AddressPortAndKeys) {
  Result<OutputSpec> spec = parseOutputSpec(
      "http:8080,clients=3,every=5,snapshot-every=10,quality=70,timeout=4,queue=9,user=u,"
      "password-file=/etc/p,cert=/c.pem,key=/k.pem,graph=300x100,mode=parade,scale=log,decor=off");
  ASSERT_TRUE(spec.ok()) << spec.error().message;
  ASSERT_EQ(spec->kind, OutputSpec::Kind::kHttp);
  const HttpSinkOptions& o = spec->http;
  EXPECT_EQ(o.address, "127.0.0.1");  // loopback unless an address is given
  EXPECT_EQ(o.port, 8080);
  EXPECT_EQ(o.clients, 3);
  EXPECT_EQ(o.every, 5);
  EXPECT_EQ(o.snapshot_every, 10);
  EXPECT_EQ(o.quality, 70);
  EXPECT_EQ(o.timeout_s, 4);
  EXPECT_EQ(o.queue, 9);
  EXPECT_EQ(o.user, "u");
  EXPECT_EQ(o.password_file, "/etc/p");
  EXPECT_EQ(o.cert, "/c.pem");
  EXPECT_EQ(o.key, "/k.pem");
  EXPECT_EQ(o.graph_width, 300);
  EXPECT_EQ(o.graph_height, 100);
  EXPECT_EQ(o.graph.mode, GraphMode::kParade);
  EXPECT_TRUE(o.graph.log_scale);
  EXPECT_FALSE(o.graph.decorations);

  Result<HttpSinkOptions> plain = parseHttpSpec("0");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->port, 0);
  EXPECT_EQ(plain->clients, 8);
  EXPECT_EQ(plain->every, 1);
  Result<HttpSinkOptions> all = parseHttpSpec("0.0.0.0:9");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->address, "0.0.0.0");
  EXPECT_EQ(all->port, 9);
  Result<HttpSinkOptions> v6 = parseHttpSpec("[::1]:8080");
  ASSERT_TRUE(v6.ok()) << v6.error().message;
  EXPECT_EQ(v6->address, "::1");
  EXPECT_TRUE(v6->allowed_hosts.empty());

  // hosts= takes the following items without '=' as more names, as drm's rect= its numbers.
  Result<HttpSinkOptions> named =
      parseHttpSpec("0.0.0.0:8080,hosts=camera-kitchen.local,Cam.Example.NET,every=2");
  ASSERT_TRUE(named.ok()) << named.error().message;
  EXPECT_EQ(named->allowed_hosts,
            (std::vector<std::string>{"camera-kitchen.local", "Cam.Example.NET"}));
  EXPECT_EQ(named->every, 2);
  Result<HttpSinkOptions> one = parseHttpSpec("8080,hosts=cam");
  ASSERT_TRUE(one.ok()) << one.error().message;
  EXPECT_EQ(one->allowed_hosts, std::vector<std::string>{"cam"});

  expectRefused({"http",
                 "http:",
                 "http:x",
                 "http:65536",
                 "http:-1",
                 "http::80",
                 "http:::1:80",
                 "http:80,clients=0",
                 "http:80,every=0",
                 "http:80,quality=101",
                 "http:80,user=u",
                 "http:80,password-file=p",
                 "http:80,cert=c",
                 "http:80,key=k",
                 "http:80,mode=bars",
                 "http:80,color=red",
                 "http:80,",
                 "http:80,timeout=0",
                 "http:80,graph=0x1",
                 "http:80,hosts=",
                 "http:80,hosts=a,,b",
                 "http:80,hosts=a,hosts=b"},
                "--output http");
}

}  // namespace
}  // namespace esf::cli

namespace esf::cli {
namespace {

// The graph keys, shared by png: and drm: (defaults differ: decorations on in PNG, off on a plane).
TEST(GraphOutputOptions, ModeScaleDecor) {
  Result<DrmSinkOptions> drm = parseDrmSpec("");
  ASSERT_TRUE(drm.ok());
  EXPECT_EQ(drm->graph.mode, GraphMode::kOverlay);
  EXPECT_FALSE(drm->graph.decorations);
  drm = parseDrmSpec("zpos=2,mode=parade,scale=log,decor=on,rect=0,0,64,32");
  ASSERT_TRUE(drm.ok()) << drm.error().message;
  EXPECT_EQ(drm->graph.mode, GraphMode::kParade);
  EXPECT_TRUE(drm->graph.log_scale);
  EXPECT_TRUE(drm->graph.decorations);
  EXPECT_EQ(drm->rect->width, 64u);
  Result<PngSinkOptions> png = parsePngSpec("shots");
  ASSERT_TRUE(png.ok());
  EXPECT_TRUE(png->graph.decorations);
  EXPECT_FALSE(png->graph.log_scale);
  png = parsePngSpec("shots,mode=luma,decor=off,every=2");
  ASSERT_TRUE(png.ok()) << png.error().message;
  EXPECT_EQ(png->graph.mode, GraphMode::kLuma);
  EXPECT_FALSE(png->graph.decorations);
  EXPECT_EQ(png->every, 2);
  Result<DrmSinkOptions> bad = parseDrmSpec("mode=vectorscope");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("--output drm: mode=vectorscope"), std::string::npos);
}

TEST(GraphOutputOptions, Scope) {
  Result<PngSinkOptions> png = parsePngSpec("shots");
  ASSERT_TRUE(png.ok());
  EXPECT_EQ(png->graph.scope, GraphScope::kNone);
  png = parsePngSpec("shots,scope=vectorscope,scale=log");
  ASSERT_TRUE(png.ok()) << png.error().message;
  EXPECT_EQ(png->graph.scope, GraphScope::kVectorscope);
  EXPECT_TRUE(png->graph.log_scale);
  Result<DrmSinkOptions> drm = parseDrmSpec("frame=off,scope=parade");
  ASSERT_TRUE(drm.ok()) << drm.error().message;
  EXPECT_EQ(drm->graph.scope, GraphScope::kParade);
  drm = parseDrmSpec("scope=waveform");
  ASSERT_TRUE(drm.ok()) << drm.error().message;
  EXPECT_EQ(drm->graph.scope, GraphScope::kWaveform);
  Result<HttpSinkOptions> http = parseHttpSpec("8080,scope=vectorscope");
  ASSERT_TRUE(http.ok()) << http.error().message;
  EXPECT_EQ(http->graph.scope, GraphScope::kVectorscope);
  Result<PngSinkOptions> bad = parsePngSpec("shots,scope=histogram");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "--output png: scope=histogram: expected waveform, parade or vectorscope");
}

// The graph is an RGBA image: within the frame limit (esframe/base/sizes.hpp). CI also runs the
// HostileSize suite under qemu-arm.
TEST(HostileSize, PngGraphSpecStopsAtTheLimit) {
  Result<PngSinkOptions> huge = parsePngSpec("out,graph=1000000x1000000");
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.error().message,
            "--output png: graph '1000000x1000000': expected WxH (e.g. 640x480), each 1..16384");
  Result<PngSinkOptions> at = parsePngSpec("out,graph=16384x1");
  ASSERT_TRUE(at.ok()) << at.error().message;
  EXPECT_EQ(at->graph_width, 16384);
}

}  // namespace
}  // namespace esf::cli
