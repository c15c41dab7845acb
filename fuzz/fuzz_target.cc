// fuzz_target: bytes given to `tigris compile --target FILE` (and analyze), through the
// library's parser (target/target.h, yaml-cpp). Any input either parses into a target
// that keeps every promise ParseTarget makes, or throws tigris::Error with
// kInvalidArgument and a message; any other exception, or a broken promise, is a finding.
// The same bytes also go through the placement-rules parser (FuzzRules).
#include <cstddef>
#include <cstdint>
#include <string>

#include "target/rules.h"
#include "target/target.h"
#include "util/error.h"

namespace {

// The same bytes as placement rules (`--rules`, target/rules.h) for a fixed part: they
// either parse into rules whose memories the part has (and whose resolution names only
// them), or throw kInvalidArgument with a message.
void FuzzRules(const std::string& text) {
  static const tigris::target::Target part = tigris::target::ParseTarget(
      "memories: [{name: DTCM, size: 64K}, {name: SRAM, size: 256K}, "
      "{name: MRAM, size: 2M, read_only: true}]",
      "part.yaml");
  tigris::target::Rules rules;
  try {
    rules = tigris::target::ParseRules(text, "fuzz_rules.yaml", part);
  } catch (const tigris::Error& e) {
    if (e.status() != tigris::Status::kInvalidArgument || std::string(e.what()).empty()) {
      __builtin_trap();
    }
    return;
  }
  for (const tigris::target::Rule& r : rules.rules) {
    if ((r.memory.empty() && r.destination.empty()) || r.text.empty()) __builtin_trap();
    for (const std::string& m : {r.memory, r.destination}) {
      if (!m.empty() && part.Find(m) < 0) __builtin_trap();
    }
  }
  for (const auto kind :
       {tigris::target::TensorKind::kScratch, tigris::target::TensorKind::kPersistent,
        tigris::target::TensorKind::kConstant}) {
    const tigris::target::Attributes a = tigris::target::Resolve(rules, kind, "x");
    if ((a.memory.empty()) != (a.memory_rule < 0)) __builtin_trap();
    // The arena's memory (ResolveKind) comes from a rule without ids, of this kind or "*".
    const tigris::target::Attributes k = tigris::target::ResolveKind(rules, kind);
    if (k.memory.empty() != (k.memory_rule < 0)) __builtin_trap();
    if (k.memory_rule >= 0) {
      const tigris::target::Rule& r = rules.rules[static_cast<size_t>(k.memory_rule)];
      if (!r.ids.empty() || (r.type && *r.type != kind)) __builtin_trap();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzRules(std::string(reinterpret_cast<const char*>(data), size));
  tigris::target::Target t;
  try {
    t = tigris::target::ParseTarget(std::string(reinterpret_cast<const char*>(data), size),
                                    "fuzz.yaml");
  } catch (const tigris::Error& e) {
    if (e.status() != tigris::Status::kInvalidArgument || std::string(e.what()).empty()) {
      __builtin_trap();
    }
    return 0;
  }
  if (t.memories.empty() || t.plan_memory < 0 ||
      static_cast<size_t>(t.plan_memory) >= t.memories.size() || t.WritableBySpeed().empty()) {
    __builtin_trap();
  }
  for (const tigris::target::Memory& m : t.memories) {
    const bool power_of_two = m.alignment > 0 && (m.alignment & (m.alignment - 1)) == 0;
    if (m.name.empty() || m.size <= 0 || !power_of_two || m.speed < 0 ||
        (!m.read_only && m.alignment < 16) || t.Find(m.name) < 0) {
      __builtin_trap();
    }
  }
  const int spill = t.SpillMemory(1);
  if (spill == t.ScratchMemory()) __builtin_trap();
  return 0;
}
