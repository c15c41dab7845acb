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

LoadedPlan::LoadedPlan(const std::string& path, Checksums checksums) : path_(path) {
  Verify(ReadInputFile(path, "plan"), TGRS_INTEGRITY_ALL, checksums == Checksums::kReportAbsent);
}

LoadedPlan::LoadedPlan(const std::string& bytes, const std::string& what, tgrs_integrity_mode mode)
    : path_(what) {
  Verify(bytes, mode, false);
}

void LoadedPlan::Verify(const std::string& contents, tgrs_integrity_mode mode,
                        bool allow_unchecked) {
  size_ = contents.size();
  // The plan must sit at a 16-aligned address (weights are read in place).
  bytes_.reset(static_cast<uint8_t*>(
      ::operator new(size_ ? size_ : 1, std::align_val_t(TGRS_PLAN_ALIGNMENT))));
  if (size_) std::memcpy(bytes_.get(), contents.data(), size_);

  tgrs_status st = tgrs_plan_init_with(&plan_, bytes_.get(), size_, mode);
  unchecked_ = mode != TGRS_INTEGRITY_ALL;
  if (st == TGRS_ERR_NO_CHECKSUM && allow_unchecked) {
    // A plan compiled before checksums: described, and said to be unchecked.
    st = tgrs_plan_init_with(&plan_, bytes_.get(), size_, TGRS_INTEGRITY_NONE);
    unchecked_ = true;
  }
  if (st != TGRS_OK) {
    char detail[256];
    tgrs_verify_error_format(&plan_.error, detail, sizeof detail);
    throw std::runtime_error(path_ + ": " + detail + " [" + tgrs_status_name(st) + "]");
  }
}

std::string IntegrityText(const LoadedPlan& loaded) {
  const tgrs_plan& p = loaded.plan();
  if (tgrs_plan_checksum(&p) == TGRS_CHECKSUM_NONE) {
    return "none: the plan carries no checksums (compiled before 0.4); a runtime refuses it "
           "unless initialised with TGRS_INTEGRITY_NONE: recompile it";
  }
  if (loaded.unchecked()) return "CRC-32C, not all checked by this load";
  uint32_t blobs = 0;
  for (uint32_t i = 0; i < tgrs_plan_weight_count(&p); ++i) {
    tgrs_plan_weight w;
    if (tgrs_plan_get_weight(&p, i, &w) == TGRS_OK && w.block < 0) ++blobs;
  }
  return "CRC-32C, checked: the tables, " + std::to_string(blobs) + " weight blob" +
         (blobs == 1 ? "" : "s") + ", " + std::to_string(tgrs_plan_weight_block_count(&p)) +
         " compressed block" + (tgrs_plan_weight_block_count(&p) == 1 ? "" : "s");
}

std::string PlanSha256Hex(const LoadedPlan& loaded) {
  uint8_t digest[32];
  tgrs_sha256(loaded.bytes(), loaded.size(), digest);
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  for (uint8_t b : digest) {
    hex += kHex[b >> 4];
    hex += kHex[b & 15];
  }
  return hex;
}

}  // namespace tigris::cli
