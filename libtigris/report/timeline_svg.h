// The memory timeline as an SVG chart (`tigris analyze --timeline`,
// tigris_analysis_timeline_svg): one bar per execution step with the fast-arena bytes
// live at it, the arena's extent as a step line, the budget as a dashed line, shaded
// bands per stage, and tiled stages and chains marked in colour with a legend.
//
// The chart is self-contained (no scripts, no external fonts or styles) so it opens the
// same in a browser, an image viewer or a document. Every bar carries a <title> tooltip
// naming its op, stage and bytes.
//
// Geometry: x = execution step (op index), y = bytes on a linear axis from 0 up to a
// round number of KiB above max(budget, largest arena extent). Axis labels are KiB.
#ifndef TIGRIS_REPORT_TIMELINE_SVG_H_
#define TIGRIS_REPORT_TIMELINE_SVG_H_

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "plan/plan.h"

namespace tigris::report {

// One bar: a TimelineStep of the plan with its op's name.
struct ChartStep {
  std::string op;
  int stage = 0;
  int64_t live_bytes = 0;   // sum of the aligned fast buffers live at this step
  int64_t arena_bytes = 0;  // highest offset + size among them
};

// One shaded band: a stage and the steps it covers.
struct ChartStage {
  int id = 0;
  size_t first_step = 0;  // index into TimelineChart::steps
  size_t last_step = 0;   // inclusive
  plan::StageStrategy strategy = plan::StageStrategy::kNormal;
  int chain = -1;  // chain id for chain stages
  bool fits = true;
  int64_t tile_rows = 0;   // tiled and chain stages: output rows per tile
  int64_t tile_count = 0;  // and the number of tiles
  // The least arena any layout of the stage's buffers needs (the live bound, or an exact
  // solve's proven bound; plan/offset_layout.h), and the arena the plan gives them.
  int64_t lower_bound_bytes = 0;
  int64_t arena_bytes = 0;
};

// A lane under the plot for another memory (issue 15: one lane per memory): the bytes it
// holds at each step, drawn to the lane's own scale.
struct ChartLane {
  std::string memory;               // "PSRAM", "slow", ...
  std::string role;                 // "spills", "weights each op reads in place"
  int64_t capacity = 0;             // 0: not given
  std::vector<int64_t> step_bytes;  // one per TimelineChart::steps entry
};

// Everything the chart shows, copied out of the graph and the plan so it can be drawn
// later without them.
struct TimelineChart {
  std::string model;
  std::string scratch_memory = "SRAM";  // the plot's memory: the scratch (fast) arena's
  std::string verdict;                  // plan::VerdictName
  int64_t budget_bytes = 0;
  int64_t scheduled_peak_bytes = 0;
  int64_t naive_peak_bytes = 0;
  std::vector<ChartStep> steps;
  std::vector<ChartStage> stages;  // in step order, covering every step once
  std::vector<ChartLane> lanes;    // other memories, in the order drawn
};

// The memories holding a plan's parts, to name the chart's plot and lanes: a target's
// (emit/compile.h CompileForTarget), else the -m shorthand's.
struct ChartMemories {
  std::string scratch = "SRAM";
  std::string spills = "slow";
  std::string plan = "flash";
  int64_t spills_capacity = 0;  // 0: not given
  int64_t plan_capacity = 0;
};

// Copies the chart's data from a plan of `graph` (plan::PlanModel): the plot from its
// timeline, a lane for the spills (each slow buffer from the stage writing it to the last
// reading it, 16-aligned) when it has any, and a lane for the plan's memory: the bytes of
// the constants each step's op reads there.
TimelineChart ChartFromPlan(const ir::Graph& graph, const plan::PlanResult& plan,
                            const ChartMemories& memories = {});

// Draws the chart. Marked elements, for tools and tests: every bar is a <rect
// class="bar">, the budget line is the <line id="budget-line">, each lane a <g
// id="lane-MEMORY"> of <rect class="lane-bar">s.
std::string TimelineSvg(const TimelineChart& chart);

}  // namespace tigris::report

#endif  // TIGRIS_REPORT_TIMELINE_SVG_H_
