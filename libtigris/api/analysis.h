// The object behind the opaque tigris_analysis handle: the plan and everything the
// accessors return, copied out of the model so the analysis outlives it (include/tigris.h).
#ifndef TIGRIS_API_ANALYSIS_H_
#define TIGRIS_API_ANALYSIS_H_

#include <string>

#include "plan/plan.h"
#include "report/timeline_svg.h"
#include "tigris.h"

struct tigris_analysis {
  tigris::plan::PlanResult plan;
  // What tigris_plan with its default options says of a plan whose verdict fits
  // (tigris_analysis_refusal): TIGRIS_OK, or its status and message, and then the verdict
  // is needs_work.
  tigris_status refusal_status = TIGRIS_OK;
  std::string refusal;
  size_t tiled_stage_count = 0;  // stages with strategy tiled or chain
  std::string json;              // tigris_analysis_json, built by tigris_analyze
  // The chart's data (names included), so the SVG can be drawn on first request without
  // the model; the drawing is not part of what tigris_analyze costs.
  tigris::report::TimelineChart chart;
  std::string timeline_svg;  // tigris_analysis_timeline_svg, built on first request
};

#endif  // TIGRIS_API_ANALYSIS_H_
