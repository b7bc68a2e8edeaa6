#pragma once
// --output SPEC -> typed sink options (esframe/sinks.hpp). SPEC:
//   jsonl | csv[:bins] | bin | png:DIR[,every=N,graph=WxH,mode=overlay|parade|luma,
//   scale=linear|log,decor=on|off] |
//   drm[:device=CARD,connector=NAME,plane=ID,zpos=N,alpha=A,rect=X,Y,W,H,buffers=2|3] |
//   mqtt://HOST[:PORT]/TOPIC[,qos=0|1,every=N,retain,queue=N,id=ID,keepalive=S,username=U,pw=P,
//     cafile=F,capath=D,cert=F,key=F,tls-version=V,insecure,will-topic=T] |
//   prom:PATH[,every=SECONDS] |
//   http:[ADDR:]PORT[,clients=N,every=N,snapshot-every=N,quality=Q,timeout=S,queue=N,user=U,
//     password-file=F,hosts=NAME[,NAME...],cert=F,key=F,graph=WxH,mode=M,scale=S,decor=on|off]
// Errors name the flag: this is the CLI's own syntax, the library never sees it.
#include <memory>
#include <string>

#include "esframe/pipeline.hpp"
#include "esframe/sinks.hpp"

namespace esf::cli {

struct OutputSpec {
  enum class Kind { kRecord, kPng, kDrm, kMqtt, kProm, kHttp };
  Kind kind = Kind::kRecord;
  RecordSinkOptions record;
  PngSinkOptions png;
  DrmSinkOptions drm;
  MqttSinkOptions mqtt;
  PromSinkOptions prom;
  HttpSinkOptions http;

  bool writesStdout() const { return kind == Kind::kRecord; }
};

Result<OutputSpec> parseOutputSpec(const std::string& text);
// The parts after "png:" and "drm:" ("" for plain "drm").
Result<PngSinkOptions> parsePngSpec(const std::string& text);
Result<DrmSinkOptions> parseDrmSpec(const std::string& text);
// The part after "mqtt://" and after "prom:".
Result<MqttSinkOptions> parseMqttSpec(const std::string& text);
Result<PromSinkOptions> parsePromSpec(const std::string& text);
// The part after "http:".
Result<HttpSinkOptions> parseHttpSpec(const std::string& text);

// Opens the sink; record sinks write to stdout.
Result<std::unique_ptr<FrameSink>> createSink(const OutputSpec& spec, Pipeline& pipeline);

}  // namespace esf::cli
