// Loads a .tgrs file the way the runtime expects it: one 16-byte aligned buffer, verified
// once by tgrs_plan_init() before anything reads it.
#include <cstring>
#include <new>
#include <stdexcept>

#include "input_file.h"
#include "inspect_plan.h"

namespace tigris::cli {

void LoadedPlan::AlignedFree::operator()(uint8_t* p) const {
  ::operator delete(p, std::align_val_t(TGRS_PLAN_ALIGNMENT));
}

LoadedPlan::LoadedPlan(const std::string& path) : path_(path) {
  Verify(ReadInputFile(path, "plan"));
}

LoadedPlan::LoadedPlan(const std::string& bytes, const std::string& what) : path_(what) {
  Verify(bytes);
}

void LoadedPlan::Verify(const std::string& contents) {
  size_ = contents.size();
  // The plan must sit at a 16-aligned address (weights are read in place).
  bytes_.reset(static_cast<uint8_t*>(
      ::operator new(size_ ? size_ : 1, std::align_val_t(TGRS_PLAN_ALIGNMENT))));
  if (size_) std::memcpy(bytes_.get(), contents.data(), size_);

  tgrs_status st = tgrs_plan_init(&plan_, bytes_.get(), size_);
  if (st != TGRS_OK) {
    char detail[256];
    tgrs_verify_error_format(&plan_.error, detail, sizeof detail);
    throw std::runtime_error(path_ + ": " + detail + " [" + tgrs_status_name(st) + "]");
  }
}

}  // namespace tigris::cli
