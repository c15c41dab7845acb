// fuzz_plan_fields: the plan target (plan_target.h) fed by a mutator that knows the
// schema. Raw byte flips mostly break the FlatBuffers framing, which the verifier rejects
// in its first checks; this mutator keeps the framing valid and changes the values the
// verifier's semantic rules are about: a tensor index, an arena offset, a tile's row range,
// a weight's size, an enum. It reads format/tgrs.fbs as compiled by `flatc --schema`
// (reflection), walks every table the input holds, picks one present scalar (a field or a
// vector element) and sets it to an edge value. No field list is kept here: a field added
// to the schema is mutated from the next build on.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "flatbuffers/reflection.h"
#include "plan_target.h"

// The mutator exists only in the libFuzzer build; the corpus replayer (replay_main.cc)
// runs the same property on the inputs without it.
#ifdef TIGRIS_LIBFUZZER
extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

const reflection::Schema& Schema() {
  static const std::string bytes = [] {
    std::ifstream in(TIGRIS_TGRS_BFBS, std::ios::binary);
    std::string b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (b.empty()) {
      std::fprintf(stderr, "fuzz_plan_fields: cannot read %s\n", TIGRIS_TGRS_BFBS);
      std::abort();
    }
    return b;
  }();
  return *reflection::GetSchema(bytes.data());
}

// One scalar the input holds: a table field, or element `index` of a scalar vector.
struct Slot {
  flatbuffers::Table* table;
  const reflection::Field* field;
  flatbuffers::VectorOfAny* vector;  // null for a table field
  reflection::BaseType type;
  size_t index;
};

void Collect(const reflection::Schema& schema, const reflection::Object& object,
             flatbuffers::Table* table, std::vector<Slot>& slots) {
  for (const reflection::Field* field : *object.fields()) {
    if (field->deprecated() || !table->CheckField(field->offset())) continue;
    const reflection::Type& type = *field->type();
    const reflection::BaseType base = type.base_type();
    if (flatbuffers::IsScalar(base)) {
      slots.push_back({table, field, nullptr, base, 0});
    } else if (base == reflection::Obj) {
      const reflection::Object& sub = *schema.objects()->Get(type.index());
      if (!sub.is_struct()) Collect(schema, sub, flatbuffers::GetFieldT(*table, *field), slots);
    } else if (base == reflection::Vector) {
      flatbuffers::VectorOfAny* vector = flatbuffers::GetFieldAnyV(*table, *field);
      const reflection::BaseType element = type.element();
      for (size_t i = 0; vector && i < vector->size(); ++i) {
        if (flatbuffers::IsScalar(element)) {
          slots.push_back({table, field, vector, element, i});
        } else if (element == reflection::Obj) {
          const reflection::Object& sub = *schema.objects()->Get(type.index());
          if (sub.is_struct()) continue;
          // The reflection API hands out const tables of a buffer we own and may write.
          Collect(schema, sub,
                  const_cast<flatbuffers::Table*>(
                      flatbuffers::GetAnyVectorElemPointer<const flatbuffers::Table>(vector, i)),
                  slots);
        }
      }
    }
  }
}

int64_t EdgeValue(int64_t old, std::mt19937& rng) {
  switch (rng() % 10) {
    case 0:
      return 0;
    case 1:
      return -1;
    case 2:
      return old + 1;
    case 3:
      return old - 1;
    case 4:
      return old * 2;
    case 5:
      return old + 16;
    case 6:
      return std::numeric_limits<int32_t>::max();
    case 7:
      return std::numeric_limits<int32_t>::min();
    case 8:
      return static_cast<int64_t>(rng() % 256);
    default:
      return static_cast<int32_t>(rng());
  }
}

// Mutates one present scalar of a plan that the FlatBuffers verifier accepts; false when
// the bytes are not such a plan or hold no scalar.
bool MutateField(uint8_t* data, size_t size, unsigned seed) {
  const reflection::Schema& schema = Schema();
  const reflection::Object& root = *schema.root_table();
  if (!flatbuffers::Verify(schema, root, data, size)) return false;
  std::vector<Slot> slots;
  Collect(schema, root, flatbuffers::GetAnyRoot(data), slots);
  if (slots.empty()) return false;
  std::mt19937 rng(seed);
  const Slot& s = slots[rng() % slots.size()];
  if (s.type == reflection::Float || s.type == reflection::Double) {
    const double values[] = {0.0, -1.0, 1e30, -0.0, std::numeric_limits<double>::quiet_NaN()};
    const double v = values[rng() % 5];
    if (s.vector) {
      flatbuffers::SetAnyVectorElemF(s.vector, s.type, s.index, v);
    } else {
      flatbuffers::SetAnyFieldF(s.table, *s.field, v);
    }
    return true;
  }
  if (s.vector) {
    const int64_t old = flatbuffers::GetAnyVectorElemI(s.vector, s.type, s.index);
    flatbuffers::SetAnyVectorElemI(s.vector, s.type, s.index, EdgeValue(old, rng));
  } else {
    const int64_t old = flatbuffers::GetAnyFieldI(*s.table, *s.field);
    flatbuffers::SetAnyFieldI(s.table, *s.field, EdgeValue(old, rng));
  }
  return true;
}

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  // Mostly field mutations; one in four is libFuzzer's own, so framing bugs stay reachable.
  if (seed % 4 != 0 && MutateField(data, size, seed)) return size;
  return LLVMFuzzerMutate(data, size, max_size);
}
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tigris_fuzz::CheckPlanBytes(data, size);
  return 0;
}
