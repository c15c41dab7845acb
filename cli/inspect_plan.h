// `tigris inspect`: a plan file read through the C99 runtime's own reader and verifier
// (runtime/include/tigris_runtime.h), exactly as a microcontroller would read it, then
// printed as text or JSON.
#ifndef TIGRIS_CLI_INSPECT_PLAN_H_
#define TIGRIS_CLI_INSPECT_PLAN_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "tigris_runtime.h"

namespace tigris::cli {

// A .tgrs file loaded into a TGRS_PLAN_ALIGNMENT-aligned buffer and verified.
class LoadedPlan {
 public:
  // What to do about the plan's checksums (docs/integrity.md): check them all, as a
  // device does (kRequire), or describe a plan that has none, as `tigris inspect` does
  // (kReportAbsent: checked when present; unchecked() tells which).
  enum class Checksums { kRequire, kReportAbsent };

  // Throws std::runtime_error("PATH: <verifier detail> [TGRS_ERR_...]") when the verifier
  // rejects the file (a damaged plan: TGRS_ERR_PLAN_CORRUPT), and one naming the path and
  // the cause when it cannot be read or is empty (ReadInputFile).
  explicit LoadedPlan(const std::string& path, Checksums checksums = Checksums::kRequire);
  // The same for plan bytes already in memory; `what` names them in messages.
  LoadedPlan(const std::string& bytes, const std::string& what,
             tgrs_integrity_mode mode = TGRS_INTEGRITY_ALL);

  const tgrs_plan& plan() const { return plan_; }
  const uint8_t* bytes() const { return bytes_.get(); }
  // Not every checksum was checked: the plan has none (Checksums::kReportAbsent), or the
  // mode given was not TGRS_INTEGRITY_ALL.
  bool unchecked() const { return unchecked_; }
  size_t size() const { return size_; }
  const std::string& path() const { return path_; }

 private:
  struct AlignedFree {
    void operator()(uint8_t* p) const;
  };
  std::string path_;
  std::unique_ptr<uint8_t, AlignedFree> bytes_;
  size_t size_ = 0;
  tgrs_plan plan_{};
  bool unchecked_ = false;

  void Verify(const std::string& bytes, tgrs_integrity_mode mode, bool allow_unchecked);
};

// Where the plan's weights are read from: "read in place (xip)", "copied per stage",
// "LZ4 blocks per stage", or for a mixed plan "read in place; copied into fast memory by
// N of M stages".
std::string WeightResidencyText(const tgrs_plan& plan);

// What the plan's checksums are and what this load checked (docs/integrity.md):
// "CRC-32C, checked: the tables, 20 weight blobs, 0 blocks", or why nothing was.
std::string IntegrityText(const LoadedPlan& loaded);

// The SHA-256 of the plan's bytes as 64 lowercase hex digits: the digest a firmware holds
// apart from the plan for tgrs_plan_check_digest (docs/integrity.md, "Tamper evidence").
std::string PlanSha256Hex(const LoadedPlan& loaded);

// The human report: header, stages, chains, tiles, tensors, ops and weights.
void PrintPlanText(const LoadedPlan& loaded, bool verbose);
// The same facts as one JSON document (bytes everywhere, like every tigris JSON).
std::string PlanJson(const LoadedPlan& loaded);

}  // namespace tigris::cli

#endif  // TIGRIS_CLI_INSPECT_PLAN_H_
