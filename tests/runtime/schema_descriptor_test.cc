// The runtime's schema descriptions (runtime/src/plan_schema.c), which drive the
// verifier's wire-format walk, against flatc's own reading of format/tgrs.fbs: its
// mini-reflection tables (flatc --reflect-names). For every table, every field the
// schema declares must be described at its id, with the schema's name and the wire shape
// flatc gives it (scalar of N bytes, struct of N bytes, string, vector of N-byte
// elements, table, vector of tables, and which table). An enum field's range rule must
// admit exactly the enum's values. So the schema stays the one source of truth (issue 17,
// item 4): a field added, retyped or renamed there and not here fails this test.
#include <gtest/gtest.h>

#include <flatbuffers/minireflect.h>

#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "../../runtime/src/plan_schema.h"
#include "format/tgrs_generated.h"
#include "tigris_runtime.h"

namespace {

namespace fb = ::tigris::tgrs;
using flatbuffers::ElementaryType;
using flatbuffers::TypeTable;

// Our table ids and flatc's tables, side by side.
struct TablePair {
  int ours;
  const TypeTable* (*theirs)();
};
const TablePair kTables[] = {
    {TGRS_TABLE_PLAN, fb::PlanTypeTable},
    {TGRS_TABLE_TENSOR, fb::TensorTypeTable},
    {TGRS_TABLE_QUANTIZATION, fb::QuantizationTypeTable},
    {TGRS_TABLE_WEIGHT, fb::WeightTypeTable},
    {TGRS_TABLE_WEIGHT_BLOCK, fb::WeightBlockTypeTable},
    {TGRS_TABLE_OP_ATTRS, fb::OpAttrsTypeTable},
    {TGRS_TABLE_OP, fb::OpTypeTable},
    {TGRS_TABLE_BUFFER, fb::BufferTypeTable},
    {TGRS_TABLE_TILE_PLAN, fb::TilePlanTypeTable},
    {TGRS_TABLE_STAGE, fb::StageTypeTable},
    {TGRS_TABLE_CHAIN, fb::ChainTypeTable},
    {TGRS_TABLE_MEMORY, fb::MemoryTypeTable},
    {TGRS_TABLE_INTEGRITY, fb::IntegrityTypeTable},
};

// Table `table`'s descriptions, fields[id].
const fb_field_schema* FieldsOf(int table) {
  return &tgrs_fb_schema_fields[tgrs_fb_schema_tables[table].first];
}

const TypeTable* TheirsOf(int ours) {
  for (const TablePair& p : kTables) {
    if (p.ours == ours) return p.theirs();
  }
  return nullptr;
}

// Bytes of a scalar on the wire.
size_t ScalarBytes(ElementaryType type) {
  switch (type) {
    case ElementaryType::ET_BOOL:
    case ElementaryType::ET_CHAR:
    case ElementaryType::ET_UCHAR:
    case ElementaryType::ET_UTYPE:
      return 1;
    case ElementaryType::ET_SHORT:
    case ElementaryType::ET_USHORT:
      return 2;
    case ElementaryType::ET_INT:
    case ElementaryType::ET_UINT:
    case ElementaryType::ET_FLOAT:
      return 4;
    default:
      return 8;
  }
}

// What flatc says field i of `table` is, written as our description would be.
struct Shape {
  int kind;
  size_t size;  // scalar / struct / element bytes; for tables, flatc's TypeTable
  const TypeTable* table = nullptr;
  const TypeTable* enumeration = nullptr;
};

Shape ShapeOf(const TypeTable* table, size_t i) {
  const flatbuffers::TypeCode code = table->type_codes[i];
  const auto base = static_cast<ElementaryType>(code.base_type);
  const TypeTable* ref = code.sequence_ref >= 0 ? table->type_refs[code.sequence_ref]() : nullptr;
  if (base == ElementaryType::ET_STRING) return {FB_KIND_STRING, 1};
  if (base == ElementaryType::ET_SEQUENCE) {
    if (ref->st == flatbuffers::ST_TABLE) {
      return {code.is_repeating ? FB_KIND_TABLES : FB_KIND_TABLE, 0, ref};
    }
    // A struct: flatc stores its size after its field offsets.
    const size_t bytes = static_cast<size_t>(ref->values[ref->num_elems]);
    return {code.is_repeating ? FB_KIND_VECTOR : FB_KIND_STRUCT, bytes};
  }
  Shape s{code.is_repeating ? FB_KIND_VECTOR : FB_KIND_SCALAR, ScalarBytes(base)};
  if (ref && ref->st == flatbuffers::ST_ENUM) s.enumeration = ref;
  return s;
}

TEST(SchemaDescriptor, EveryTableOfTheSchemaIsDescribed) {
  // Every table reachable from the root in flatc's reflection is one of ours.
  std::vector<const TypeTable*> todo = {fb::PlanTypeTable()};
  std::set<const TypeTable*> seen;
  while (!todo.empty()) {
    const TypeTable* t = todo.back();
    todo.pop_back();
    if (!seen.insert(t).second) continue;
    bool ours = false;
    for (const TablePair& p : kTables) ours |= p.theirs() == t;
    EXPECT_TRUE(ours) << "a table reachable from Plan has no description in plan_schema.c ("
                      << t->num_elems << " fields)";
    for (size_t i = 0; i < t->num_elems; ++i) {
      const Shape s = ShapeOf(t, i);
      if (s.table) todo.push_back(s.table);
    }
  }
  EXPECT_EQ(seen.size(), std::size(kTables));
}

TEST(SchemaDescriptor, EveryFieldHasTheSchemasIdNameAndWireShape) {
  for (const TablePair& p : kTables) {
    const TypeTable* theirs = p.theirs();
    const fb_table_schema& ours = tgrs_fb_schema_tables[p.ours];
    ASSERT_EQ(ours.count, theirs->num_elems) << "table " << p.ours;
    for (size_t i = 0; i < theirs->num_elems; ++i) {
      const fb_field_schema& f = FieldsOf(p.ours)[i];
      const std::string where = std::string(theirs->names[i]) + " (table " +
                                std::to_string(p.ours) + ", id " + std::to_string(i) + ")";
      ASSERT_NE(f.name, nullptr) << where << " has no description";
      EXPECT_STREQ(f.name, theirs->names[i]) << where;
      const Shape s = ShapeOf(theirs, i);
      EXPECT_EQ(FB_KIND_OF(&f), static_cast<unsigned>(s.kind)) << where;
      if (s.kind == FB_KIND_TABLE || s.kind == FB_KIND_TABLES) {
        EXPECT_EQ(TheirsOf(f.size), s.table) << where << " names another table";
      } else {
        EXPECT_EQ(f.size, s.size) << where;
      }
      const unsigned rule = FB_RULE_OF(&f) & FB_RULE_MASK;
      if (rule == FB_RULE_ENUM && std::string(f.name) == "code" && s.enumeration == nullptr) {
        // Op.code: a ushort whose values the op table states (tgrs_ops.def), not the schema.
        EXPECT_EQ(f.arg, static_cast<unsigned>(TGRS_OP_CODE_COUNT)) << where;
      } else if (rule == FB_RULE_ENUM) {
        // The range rule admits 0..arg-1: exactly the enum's values, which must then be
        // 0, 1, 2, ... (flatc leaves `values` null for such an enum).
        ASSERT_NE(s.enumeration, nullptr) << where << " is not an enum in the schema";
        EXPECT_EQ(f.arg, s.enumeration->num_elems) << where;
        if (s.enumeration->values) {
          for (size_t v = 0; v < s.enumeration->num_elems; ++v) {
            EXPECT_EQ(s.enumeration->values[v], static_cast<int64_t>(v)) << where;
          }
        }
      }
      if (rule == FB_RULE_INDEX || rule == FB_RULE_INDEX_OR_NONE) {
        // Indices are int32, alone or in a vector.
        EXPECT_EQ(f.size, 4u) << where;
        EXPECT_TRUE(FB_KIND_OF(&f) == FB_KIND_SCALAR || FB_KIND_OF(&f) == FB_KIND_VECTOR) << where;
        EXPECT_LT(f.arg, TGRS_COLLECTION_COUNT) << where;
      }
    }
  }
}

// FB_FIELD numbers every field once, table after table, and names it by the schema's
// name: the verifier's rules pass these numbers for the fields on the error path.
TEST(SchemaDescriptor, FieldNumbersNameTheSchemasFields) {
  std::vector<int> owner(FB_FIELD_COUNT, -1);
  for (const TablePair& p : kTables) {
    const fb_table_schema& ours = tgrs_fb_schema_tables[p.ours];
    const TypeTable* theirs = p.theirs();
    for (size_t i = 0; i < ours.count; ++i) {
      const size_t field = ours.first + i;
      ASSERT_LT(field, static_cast<size_t>(FB_FIELD_COUNT)) << "table " << p.ours;
      EXPECT_EQ(owner[field], -1) << "field number " << field << " is in two tables";
      owner[field] = p.ours;
      EXPECT_STREQ(tgrs_fb_field_name(static_cast<unsigned>(field)), theirs->names[i]);
    }
  }
  for (int field = 0; field < FB_FIELD_COUNT; ++field) {
    EXPECT_NE(owner[field], -1) << "field number " << field << " is in no table";
  }
  EXPECT_STREQ(tgrs_fb_field_name(FB_NO_FIELD), "?");
  // A few by name, as the rules write them.
  EXPECT_STREQ(tgrs_fb_field_name(FB_FIELD(OP, INPUTS)), "inputs");
  EXPECT_STREQ(tgrs_fb_field_name(FB_FIELD(QUANT, ZERO_POINT)), "zero_point");
  EXPECT_STREQ(tgrs_fb_field_name(FB_FIELD(TILE, CHANNELS)), "channels");
  EXPECT_STREQ(tgrs_fb_field_name(FB_FIELD(MEMORY, ALIGNMENT)), "alignment");
}

// The index rules name the vectors the schema's comments say they index.
TEST(SchemaDescriptor, IndexRulesNameTheirCollections) {
  const fb_field_schema* tensor = FieldsOf(TGRS_TABLE_TENSOR);
  EXPECT_EQ(tensor[fb::Tensor::VT_WEIGHT / 2 - 2].arg, TGRS_COLLECTION_WEIGHTS);
  const fb_field_schema* stage = FieldsOf(TGRS_TABLE_STAGE);
  EXPECT_EQ(stage[fb::Stage::VT_CHAIN / 2 - 2].arg, TGRS_COLLECTION_CHAINS);
  EXPECT_EQ(stage[fb::Stage::VT_WEIGHT_BLOCK / 2 - 2].arg, TGRS_COLLECTION_WEIGHT_BLOCKS);
  EXPECT_EQ(stage[fb::Stage::VT_OPS / 2 - 2].arg, TGRS_COLLECTION_OPS);
  const fb_field_schema* chain = FieldsOf(TGRS_TABLE_CHAIN);
  EXPECT_EQ(chain[fb::Chain::VT_STAGES / 2 - 2].arg, TGRS_COLLECTION_STAGES);
  const fb_field_schema* plan = FieldsOf(TGRS_TABLE_PLAN);
  EXPECT_EQ(plan[fb::Plan::VT_INPUTS / 2 - 2].arg, TGRS_COLLECTION_TENSORS);
  EXPECT_EQ(plan[fb::Plan::VT_OUTPUTS / 2 - 2].arg, TGRS_COLLECTION_TENSORS);
  // Each collection's message names it.
  const char* names[] = {"tensors", "ops", "stages", "chains", "weights", "weight blocks"};
  for (int i = 0; i < TGRS_COLLECTION_COUNT; ++i) {
    EXPECT_NE(std::string(tgrs_fb_collection_messages[i]).find(std::string("(") + names[i] + ":"),
              std::string::npos)
        << tgrs_fb_collection_messages[i];
  }
}

}  // namespace
