#include "target/target.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "target/yaml_util.h"
#include "util/error.h"
#include "util/size_parse.h"

namespace tigris::target {
namespace {

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

bool StartsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

int64_t SizeOf(const std::string& source, const YAML::Node& node, const std::string& field) {
  const std::string text = ScalarOf(source, node, field);
  try {
    const uint64_t bytes = ParseSize(text);
    if (bytes > static_cast<uint64_t>(INT64_MAX))
      throw Error(Status::kInvalidArgument, "too large");
    return static_cast<int64_t>(bytes);
  } catch (const Error& e) {
    Fail(source, node, field + ": " + e.what());
  }
}

Memory ParseMemory(const std::string& source, const YAML::Node& node, size_t index) {
  const std::string where = "memories[" + std::to_string(index) + "]";
  RequireKeys(source, node, where.c_str(), {"name", "size", "alignment", "read_only", "speed"});
  Memory m;
  if (!node["name"]) Fail(source, node, where + " has no name");
  m.name = ScalarOf(source, node["name"], where + ".name");
  if (m.name.empty()) Fail(source, node["name"], where + ".name is empty");
  const std::string field = "memory '" + m.name + "'";
  if (!node["size"]) Fail(source, node, field + " has no size");
  m.size = SizeOf(source, node["size"], field + " size");
  m.speed = SpeedRankOfName(m.name);
  if (const YAML::Node ro = node["read_only"]) {
    const std::string text = ScalarOf(source, ro, field + " read_only");
    try {
      m.read_only = ro.as<bool>();
    } catch (const YAML::Exception&) {
      Fail(source, ro, field + " read_only must be true or false, got '" + text + "'");
    }
  }
  if (const YAML::Node a = node["alignment"]) {
    m.alignment = SizeOf(source, a, field + " alignment");
    if ((m.alignment & (m.alignment - 1)) != 0) {
      Fail(source, a,
           field + " alignment " + std::to_string(m.alignment) + " is not a power of two");
    }
  }
  if (!m.read_only && m.alignment < 16) {
    // Arena homes are 16-aligned offsets (docs/memory-model.md).
    Fail(source, node["alignment"] ? node["alignment"] : node,
         field + " alignment " + std::to_string(m.alignment) +
             " is below 16, the runtime's arena alignment");
  }
  if (const YAML::Node s = node["speed"]) {
    const std::string text = ScalarOf(source, s, field + " speed");
    try {
      m.speed = s.as<int>();
    } catch (const YAML::Exception&) {
      Fail(source, s, field + " speed must be a rank (0 = fastest), got '" + text + "'");
    }
    if (m.speed < 0) Fail(source, s, field + " speed must be a rank >= 0 (0 = fastest)");
  }
  return m;
}

}  // namespace

int Target::Find(const std::string& name) const {
  for (size_t i = 0; i < memories.size(); ++i) {
    if (memories[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

std::vector<int> Target::WritableBySpeed() const {
  std::vector<int> out;
  for (size_t i = 0; i < memories.size(); ++i) {
    if (!memories[i].read_only) out.push_back(static_cast<int>(i));
  }
  std::stable_sort(out.begin(), out.end(), [this](int a, int b) {
    return memories[static_cast<size_t>(a)].speed < memories[static_cast<size_t>(b)].speed;
  });
  return out;
}

int Target::SpillMemory(int64_t bytes, int scratch) const {
  if (scratch < 0) scratch = ScratchMemory();
  for (int m : WritableBySpeed()) {
    if (m != scratch && memories[static_cast<size_t>(m)].size >= bytes) return m;
  }
  return -1;
}

int SpeedRankOfName(const std::string& name) {
  const std::string n = Upper(name);
  if (n == "ITCM") return 0;
  if (n == "DTCM" || n == "TCM") return 1;
  if (StartsWith(n, "SRAM") || StartsWith(n, "AXI")) return 2;
  if (n == "PSRAM" || n == "SDRAM" || StartsWith(n, "PSRAM")) return 3;
  if (n == "MRAM" || n == "FLASH" || StartsWith(n, "FLASH")) return 4;
  return 2;
}

Target ParseTarget(const std::string& yaml, const std::string& source) {
  const YAML::Node root = LoadYaml(yaml, source);
  if (!root || root.IsNull()) {
    throw Error(Status::kInvalidArgument, source + ": empty target description (needs memories:)");
  }
  RequireKeys(source, root, "the target", {"memories", "plan_memory"});
  const YAML::Node list = root["memories"];
  if (!list) Fail(source, root, "the target has no memories: list");
  if (!list.IsSequence() || list.size() == 0) {
    Fail(source, list, "memories must be a non-empty list of {name, size, ...}");
  }
  Target t;
  t.source = source;
  for (size_t i = 0; i < list.size(); ++i) {
    Memory m = ParseMemory(source, list[i], i);
    if (t.Find(m.name) >= 0)
      Fail(source, list[i]["name"], "memory '" + m.name + "' is declared twice");
    t.memories.push_back(std::move(m));
  }
  if (t.WritableBySpeed().empty()) {
    Fail(source, list,
         "every memory is read_only: the plan needs a writable memory for its arenas");
  }
  if (const YAML::Node pm = root["plan_memory"]) {
    const std::string name = ScalarOf(source, pm, "plan_memory");
    t.plan_memory = t.Find(name);
    if (t.plan_memory < 0) Fail(source, pm, "plan_memory '" + name + "' names no memory");
  } else {
    std::vector<int> read_only;
    for (size_t i = 0; i < t.memories.size(); ++i) {
      if (t.memories[i].read_only) read_only.push_back(static_cast<int>(i));
    }
    if (read_only.size() == 1) {
      t.plan_memory = read_only[0];
    } else if (read_only.size() > 1) {
      std::string names;
      for (int i : read_only)
        names += (names.empty() ? "" : ", ") + t.memories[static_cast<size_t>(i)].name;
      Fail(source, root,
           "several read-only memories (" + names +
               "): say which one holds the plan with plan_memory");
    } else {
      for (size_t i = 0; i < t.memories.size(); ++i) {
        if (Upper(t.memories[i].name) == "FLASH") t.plan_memory = static_cast<int>(i);
      }
      if (t.plan_memory < 0) {
        Fail(source, root,
             "no memory for the plan: mark one read_only (flash, MRAM) or name it with "
             "plan_memory");
      }
    }
  }
  return t;
}

Target OneMemoryTarget(int64_t bytes, int64_t plan_bytes) {
  Target t;
  t.source = "-m";
  t.memories.push_back({"SRAM", bytes, 16, false, SpeedRankOfName("SRAM")});
  t.memories.push_back({"FLASH", plan_bytes, 16, true, SpeedRankOfName("FLASH")});
  t.plan_memory = 1;
  return t;
}

}  // namespace tigris::target
