// Placement rules (target/rules.h): the seed's precedence (tensor-memory-attributes.txt,
// "Matching & precedence": catch-all < type < id < type and id, later wins at equal
// specificity), worked by hand per tensor, and every malformed ruleset refused naming the
// file, line, column (1-based, of the offending node, counted by hand) and rule.
#include "target/rules.h"

#include <gtest/gtest.h>

#include <string>

#include "util/error.h"

namespace tigris::target {
namespace {

const Target& Part() {
  static const Target t = ParseTarget(
      "memories:\n"
      "  - {name: DTCM, size: 64K}\n"
      "  - {name: SRAM, size: 256K}\n"
      "  - {name: PSRAM, size: 8M}\n"
      "  - {name: MRAM, size: 2M, read_only: true}\n",
      "part.yaml");
  return t;
}

std::string ErrorOf(const std::string& yaml) {
  try {
    ParseRules(yaml, "r.yaml", Part());
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidArgument);
    return e.what();
  }
  return "";
}

TEST(RulesTest, PrecedenceFromCatchAllToTypeAndId) {
  // Listed most specific first, so that file order alone would get every case wrong.
  const Rules r = ParseRules(
      "tensors:\n"
      "  - {type: SCRATCH, id: buf, attributes: {memory: SRAM}}\n"  // 0: type and id
      "  - {id: [buf, w], attributes: {memory: PSRAM}}\n"           // 1: id
      "  - {type: SCRATCH, attributes: {memory: PSRAM}}\n"          // 2: type
      "  - {attributes: {memory: DTCM}}\n"                          // 3: catch-all
      "  - {type: SCRATCH, attributes: {memory: DTCM}}\n",          // 4: type, later than 2
      "r.yaml", Part());
  ASSERT_EQ(r.rules.size(), 5u);
  EXPECT_EQ(r.rules[0].Specificity(), 3);
  EXPECT_EQ(r.rules[1].Specificity(), 2);
  EXPECT_EQ(r.rules[2].Specificity(), 1);
  EXPECT_EQ(r.rules[3].Specificity(), 0);

  Attributes a = Resolve(r, TensorKind::kScratch, "buf");  // rules 3, 2, 4, 1, 0
  EXPECT_EQ(a.memory, "SRAM");
  EXPECT_EQ(a.memory_rule, 0);
  a = Resolve(r, TensorKind::kScratch, "other");  // 3, 2, 4: the later type rule wins
  EXPECT_EQ(a.memory, "DTCM");
  EXPECT_EQ(a.memory_rule, 4);
  a = Resolve(r, TensorKind::kConstant, "w");  // 3, 1
  EXPECT_EQ(a.memory, "PSRAM");
  EXPECT_EQ(a.memory_rule, 1);
  a = Resolve(r, TensorKind::kPersistent, "state");  // 3 only
  EXPECT_EQ(a.memory, "DTCM");
  EXPECT_EQ(a.memory_rule, 3);
  EXPECT_EQ(a.destination_rule, -1);
}

TEST(RulesTest, AttributesMergeOneAtATime) {
  const Rules r = ParseRules(
      "tensors:\n"
      "  - type: CONSTANT\n"
      "    attributes: {memory: MRAM, constant_destination_memory: DTCM}\n"
      "  - id: fc_5_weight\n"
      "    attributes: {constant_destination_memory: SRAM}\n",
      "r.yaml", Part());
  const Attributes a = Resolve(r, TensorKind::kConstant, "fc_5_weight");
  EXPECT_EQ(a.memory, "MRAM");  // from the type rule: the id rule does not set it
  EXPECT_EQ(a.memory_rule, 0);
  EXPECT_EQ(a.destination, "SRAM");
  EXPECT_EQ(a.destination_rule, 1);
  const Attributes b = Resolve(r, TensorKind::kConstant, "conv_w");
  EXPECT_EQ(b.destination, "DTCM");
  const Attributes none = Resolve(r, TensorKind::kScratch, "fc_5_weight");  // id rule: "*"
  EXPECT_EQ(none.memory, "");
  EXPECT_EQ(none.destination, "SRAM");
}

TEST(RulesTest, RuleTextSaysWhatAndWhere) {
  const Rules r = ParseRules(
      "tensors:\n"
      "  - type: PERSISTENT\n"
      "    attributes: { memory: SRAM }\n",
      "r.yaml", Part());
  EXPECT_EQ(r.rules[0].text, "rule 0 (type: PERSISTENT, memory: SRAM) at r.yaml:2:5");
}

TEST(RulesTest, MalformedRulesAreRefusedNamingTheRule) {
  EXPECT_EQ(ErrorOf("tensors: [{attributes: {memory: DTCM}}"),
            "r.yaml:1:1: not valid YAML: end of sequence flow not found");
  EXPECT_EQ(ErrorOf(""), "r.yaml: empty rules file (needs tensors:)");
  EXPECT_EQ(ErrorOf("rules: []"), "r.yaml:1:1: unknown key 'rules' in the rules (known: tensors)");
  EXPECT_EQ(ErrorOf("tensors: {a: 1}"), "r.yaml:1:10: tensors must be a list of rules");
  EXPECT_EQ(ErrorOf("tensors:\n  - {type: VARIABLE, attributes: {memory: SRAM}}"),
            "r.yaml:2:12: rule 0 type 'VARIABLE' is not SCRATCH, PERSISTENT, CONSTANT or \"*\"");
  EXPECT_EQ(ErrorOf("tensors:\n  - {id: {a: 1}, attributes: {memory: SRAM}}"),
            "r.yaml:2:10: rule 0 id must be a name, a list of names or null");
  EXPECT_EQ(ErrorOf("tensors:\n  - {id: [], attributes: {memory: SRAM}}"),
            "r.yaml:2:10: rule 0 id is an empty list (use null for every tensor)");
  EXPECT_EQ(ErrorOf("tensors:\n  - {type: SCRATCH}"), "r.yaml:2:5: rule 0 has no attributes");
  EXPECT_EQ(ErrorOf("tensors:\n  - {attributes: {}}"),
            "r.yaml:2:18: rule 0 sets no attribute (memory, constant_destination_memory)");
  EXPECT_EQ(ErrorOf("tensors:\n  - {attributes: {memory: DTCM, speed: 1}}"),
            "r.yaml:2:33: unknown key 'speed' in rule 0 attributes (known: "
            "constant_destination_memory, memory)");
  EXPECT_EQ(ErrorOf("tensors:\n  - {attributes: {memory: ITCM}}"),
            "r.yaml:2:5: rule 0: memory 'ITCM' is not in target part.yaml (DTCM, SRAM, PSRAM, "
            "MRAM)");
  EXPECT_EQ(ErrorOf("tensors:\n  - {type: SCRATCH, attributes: {memory: MRAM}}"),
            "r.yaml:2:5: rule 0: SCRATCH tensors are written, and MRAM is read-only");
  EXPECT_EQ(ErrorOf("tensors:\n  - {type: PERSISTENT, attributes: {memory: MRAM}}"),
            "r.yaml:2:5: rule 0: PERSISTENT tensors are written, and MRAM is read-only");
  EXPECT_EQ(ErrorOf("tensors:\n  - {attributes: {constant_destination_memory: MRAM}}"),
            "r.yaml:2:5: rule 0: constant_destination_memory MRAM is read-only; staged "
            "constants are copied into it");
  EXPECT_EQ(ErrorOf("tensors:\n  - {type: SCRATCH, attributes: {constant_destination_memory: "
                    "SRAM}}"),
            "r.yaml:2:5: rule 0: constant_destination_memory applies to CONSTANT tensors, not "
            "SCRATCH");
  // Constants may name a read-only memory: it is where they are read in place.
  EXPECT_EQ(ErrorOf("tensors:\n  - {type: CONSTANT, attributes: {memory: MRAM}}"), "");
}

}  // namespace
}  // namespace tigris::target
