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
  // Throws std::runtime_error("PATH: <verifier detail> [TGRS_ERR_...]") when the verifier
  // rejects the file, and one naming the path and the cause when it cannot be read or is
  // empty (ReadInputFile).
  explicit LoadedPlan(const std::string& path);
  // The same for plan bytes already in memory; `what` names them in messages.
  LoadedPlan(const std::string& bytes, const std::string& what);

  const tgrs_plan& plan() const { return plan_; }
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

  void Verify(const std::string& bytes);
};

// Where the plan's weights are read from: "read in place (xip)", "copied per stage",
// "LZ4 blocks per stage", or for a mixed plan "read in place; copied into fast memory by
// N of M stages".
std::string WeightResidencyText(const tgrs_plan& plan);

// The human report: header, stages, chains, tiles, tensors, ops and weights.
void PrintPlanText(const LoadedPlan& loaded, bool verbose);
// The same facts as one JSON document (bytes everywhere, like every tigris JSON).
std::string PlanJson(const LoadedPlan& loaded);

}  // namespace tigris::cli

#endif  // TIGRIS_CLI_INSPECT_PLAN_H_
