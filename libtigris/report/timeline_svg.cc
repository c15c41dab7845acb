// TimelineSvg: draws a TimelineChart (report/timeline_svg.h).
#include "report/timeline_svg.h"

#include <algorithm>
#include <cmath>

#include "report/svg_writer.h"
#include "util/size_parse.h"

namespace tigris::report {
namespace {

// Layout in SVG user units (px). The plot box is fixed in height; wide models widen it
// so no bar gets thinner than kMinBarWidth.
constexpr double kLeft = 78, kRight = 28, kTop = 92, kPlotHeight = 300, kBottom = 92;
constexpr double kMinPlotWidth = 860, kMinBarWidth = 5;
// A memory lane under the plot: its bars' full height, and the room it takes.
constexpr double kLaneBar = 26, kLaneHeight = 44, kLanesTop = 50;

// Colours: Tableau 10, distinguishable for the common colour-vision deficiencies.
constexpr char kNormalFill[] = "#4c78a8";
constexpr char kTiledFill[] = "#f58518";
constexpr char kChainFill[] = "#8e5fb5";
constexpr char kOverFill[] = "#e45756";
constexpr char kBudgetStroke[] = "#c0392b";
constexpr char kArenaStroke[] = "#333333";
constexpr char kBoundStroke[] = "#2471a3";
constexpr char kInk[] = "#222222";
constexpr char kMuted[] = "#666666";

// The room the lanes take, with a gap before the legend when there are any.
double LanesHeight(const TimelineChart& chart) {
  return chart.lanes.empty() ? 0 : kLaneHeight * static_cast<double>(chart.lanes.size()) + 14;
}

const char* StageFill(const ChartStage& s) {
  if (!s.fits) return kOverFill;
  switch (s.strategy) {
    case plan::StageStrategy::kTiled:
      return kTiledFill;
    case plan::StageStrategy::kChain:
      return kChainFill;
    case plan::StageStrategy::kNormal:
      break;
  }
  return kNormalFill;
}

// Tick label: KiB with at most two decimals, trailing zeros dropped ("64", "12.5", "0.25").
std::string KiB(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.2f", bytes / 1024.0);
  std::string s(buf);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

// A round tick step in bytes: 1, 2, 2.5 or 5 times a power of ten KiB, giving at most
// about six ticks up to `max_bytes`.
double TickStep(double max_bytes) {
  const double target_kib = std::max(max_bytes / 1024.0 / 5.0, 1e-3);
  const double base = std::pow(10.0, std::floor(std::log10(target_kib)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (m * base >= target_kib) return m * base * 1024.0;
  }
  return 10.0 * base * 1024.0;
}

// Every k-th step gets an x label, k in 1, 2, 5, 10, 20, 50, ... so at most ~20 show.
size_t LabelEvery(size_t steps) {
  for (size_t k = 1;; k *= 10) {
    for (size_t m : {k, 2 * k, 5 * k}) {
      if (steps / m <= 20) return m;
    }
  }
}

struct Frame {
  double x0 = kLeft, width = 0, bar = 0;  // plot left, plot width, width of one step
  double y_bottom = kTop + kPlotHeight;
  double tick_bytes = 1;  // distance between y ticks
  double top_bytes = 1;   // the value at the top of the axis, a multiple of tick_bytes
  double highest = 0;     // the tallest value drawn (bar or arena extent)
  bool cut = false;       // values above top_bytes are drawn cut off at the top
  double X(size_t step) const { return x0 + bar * static_cast<double>(step); }
  double Y(double bytes) const {
    return y_bottom - kPlotHeight * std::min(bytes, top_bytes) / top_bytes;
  }
};

// Beyond this multiple of the budget a linear axis would flatten every stage that fits
// into the baseline, so the axis stops at kCutAxisBudgets budgets and taller bars are cut.
constexpr double kCutAboveBudgets = 4, kCutAxisBudgets = 3;

Frame MakeFrame(const TimelineChart& chart) {
  Frame f;
  const double n = static_cast<double>(std::max<size_t>(chart.steps.size(), 1));
  f.width = std::max(kMinPlotWidth, n * kMinBarWidth);
  f.bar = f.width / n;
  const double budget = static_cast<double>(std::max<int64_t>(chart.budget_bytes, 1));
  f.highest = budget;
  for (const ChartStep& s : chart.steps) {
    f.highest = std::max(
        {f.highest, static_cast<double>(s.live_bytes), static_cast<double>(s.arena_bytes)});
  }
  f.cut = f.highest > kCutAboveBudgets * budget;
  const double shown = f.cut ? kCutAxisBudgets * budget : f.highest;
  f.tick_bytes = TickStep(shown);
  // Headroom above the tallest thing so the budget label and peak label stay inside.
  f.top_bytes = std::ceil(shown * 1.08 / f.tick_bytes) * f.tick_bytes;
  return f;
}

void DrawHeading(SvgWriter& svg, const TimelineChart& chart, const Frame& f) {
  svg.Text(
      "text",
      {{"x", Num(f.x0)}, {"y", "30"}, {"font-size", "18"}, {"font-weight", "bold"}, {"fill", kInk}},
      chart.model.empty() ? "(unnamed model)" : chart.model);
  const bool bad = chart.verdict == "needs_work";
  svg.Open("text", {{"x", Num(f.x0)}, {"y", "54"}, {"font-size", "13"}, {"fill", kInk}});
  svg.Text("tspan", {{"font-weight", "bold"}, {"fill", bad ? kOverFill : "#2e7d32"}},
           chart.verdict);
  svg.Text("tspan", {},
           "  \u00b7  scheduled peak " + FormatSize(chart.scheduled_peak_bytes) + " of " +
               FormatSize(chart.budget_bytes) + " " + chart.scratch_memory +
               " budget  \u00b7  naive peak " + FormatSize(chart.naive_peak_bytes) + "  \u00b7  " +
               std::to_string(chart.steps.size()) + " steps in " +
               std::to_string(chart.stages.size()) + " stages");
  svg.Close();
}

// Shaded bands, stage labels, and above the plot a marker per tiled stage and per chain.
void DrawStages(SvgWriter& svg, const TimelineChart& chart, const Frame& f) {
  svg.Open("g", {{"id", "stages"}});
  for (size_t i = 0; i < chart.stages.size(); ++i) {
    const ChartStage& s = chart.stages[i];
    const double x = f.X(s.first_step), w = f.X(s.last_step + 1) - x;
    svg.Empty("rect", {{"x", Num(x)},
                       {"y", Num(kTop)},
                       {"width", Num(w)},
                       {"height", Num(kPlotHeight)},
                       {"fill", i % 2 ? "#ececec" : "#f8f8f8"}});
    if (w >= 22) {
      svg.Text("text",
               {{"x", Num(x + w / 2)},
                {"y", Num(kTop + 13)},
                {"font-size", "10"},
                {"text-anchor", "middle"},
                {"fill", kMuted}},
               "S" + std::to_string(s.id));
    }
  }
  svg.Close();

  svg.Open("g", {{"id", "markers"}});
  for (size_t i = 0; i < chart.stages.size(); ++i) {
    const ChartStage& s = chart.stages[i];
    if (s.strategy == plan::StageStrategy::kNormal) continue;
    // A chain's marker spans all its stages, drawn once at its first stage.
    size_t last = i;
    if (s.strategy == plan::StageStrategy::kChain) {
      if (i > 0 && chart.stages[i - 1].chain == s.chain) continue;
      while (last + 1 < chart.stages.size() && chart.stages[last + 1].chain == s.chain) ++last;
    }
    const double x = f.X(s.first_step), w = f.X(chart.stages[last].last_step + 1) - x;
    const bool chain = s.strategy == plan::StageStrategy::kChain;
    svg.Empty("rect", {{"x", Num(x + 1)},
                       {"y", Num(kTop - 12)},
                       {"width", Num(std::max(w - 2, 2.0))},
                       {"height", "8"},
                       {"rx", "2"},
                       {"fill", chain ? kChainFill : kTiledFill}});
    // The longest label that fits over the marker (~5.5 px per character at 10 px).
    const std::string name = chain ? "chain " + std::to_string(s.chain) : "tiled";
    const std::string rows = std::to_string(s.tile_rows) + (s.tile_rows == 1 ? " row" : " rows");
    std::string label = name + ": " + std::to_string(s.tile_count) + " tiles of " + rows;
    for (const std::string& shorter :
         {name, chain ? "C" + std::to_string(s.chain) : std::string("T")}) {
      if (static_cast<double>(label.size()) * 5.5 <= w) break;
      label = shorter;
    }
    if (w >= 9) {
      svg.Text("text",
               {{"x", Num(x + w / 2)},
                {"y", Num(kTop - 16)},
                {"font-size", "10"},
                {"text-anchor", "middle"},
                {"fill", chain ? kChainFill : "#b25f00"}},
               label);
    }
  }
  svg.Close();
}

void DrawAxes(SvgWriter& svg, const TimelineChart& chart, const Frame& f) {
  const double step = f.tick_bytes;
  svg.Open("g", {{"id", "axes"}, {"font-size", "11"}, {"fill", kMuted}});
  for (double v = 0; v <= f.top_bytes + step / 2; v += step) {
    const std::string y = Num(f.Y(v));
    svg.Empty("line", {{"x1", Num(f.x0)},
                       {"x2", Num(f.x0 + f.width)},
                       {"y1", y},
                       {"y2", y},
                       {"stroke", "#d6d6d6"},
                       {"stroke-width", "1"}});
    svg.Text("text", {{"x", Num(f.x0 - 6)}, {"y", Num(f.Y(v) + 4)}, {"text-anchor", "end"}},
             KiB(v));
  }
  const size_t every = LabelEvery(chart.steps.size());
  for (size_t i = 0; i < chart.steps.size(); i += every) {
    const double x = f.X(i) + f.bar / 2;
    svg.Empty("line", {{"x1", Num(x)},
                       {"x2", Num(x)},
                       {"y1", Num(f.y_bottom)},
                       {"y2", Num(f.y_bottom + 4)},
                       {"stroke", kMuted}});
    svg.Text("text", {{"x", Num(x)}, {"y", Num(f.y_bottom + 16)}, {"text-anchor", "middle"}},
             std::to_string(i));
  }
  svg.Empty("line", {{"x1", Num(f.x0)},
                     {"x2", Num(f.x0 + f.width)},
                     {"y1", Num(f.y_bottom)},
                     {"y2", Num(f.y_bottom)},
                     {"stroke", kMuted}});
  svg.Empty("line", {{"x1", Num(f.x0)},
                     {"x2", Num(f.x0)},
                     {"y1", Num(kTop)},
                     {"y2", Num(f.y_bottom)},
                     {"stroke", kMuted}});
  svg.Text("text",
           {{"x", Num(f.x0 + f.width / 2)},
            {"y", Num(f.y_bottom + 34)},
            {"text-anchor", "middle"},
            {"font-size", "12"},
            {"fill", kInk}},
           "execution step (op index)");
  const std::string mid = Num(kTop + kPlotHeight / 2);
  svg.Text("text",
           {{"x", "20"},
            {"y", mid},
            {"text-anchor", "middle"},
            {"font-size", "12"},
            {"fill", kInk},
            {"transform", "rotate(-90 20 " + mid + ")"}},
           chart.scratch_memory + ", scratch (KiB)");
  svg.Close();
}

void DrawBars(SvgWriter& svg, const TimelineChart& chart, const Frame& f) {
  const double gap = f.bar >= 6 ? f.bar * 0.18 : 0.5;
  svg.Open("g", {{"id", "bars"}});
  for (const ChartStage& s : chart.stages) {
    for (size_t i = s.first_step; i <= s.last_step && i < chart.steps.size(); ++i) {
      const ChartStep& step = chart.steps[i];
      const double top = f.Y(static_cast<double>(step.live_bytes));
      svg.Open("rect", {{"class", "bar"},
                        {"x", Num(f.X(i) + gap / 2)},
                        {"y", Num(top)},
                        {"width", Num(f.bar - gap)},
                        {"height", Num(f.y_bottom - top)},
                        {"fill", StageFill(s)}});
      svg.Text("title", {},
               "step " + std::to_string(i) + ": " + step.op + "\nstage " + std::to_string(s.id) +
                   " (" + std::string(plan::StageStrategyName(s.strategy)) + ")\nlive " +
                   FormatSize(step.live_bytes) + ", arena extent " + FormatSize(step.arena_bytes));
      svg.Close();
      if (static_cast<double>(step.live_bytes) > f.top_bytes) {
        // A white gap near the top: the bar continues off the axis (see the note).
        svg.Empty("rect", {{"x", Num(f.X(i))},
                           {"y", Num(kTop + 9)},
                           {"width", Num(f.bar)},
                           {"height", "3"},
                           {"fill", "#ffffff"}});
      }
    }
  }
  svg.Close();
  if (f.cut) {
    // Under the plot, right-aligned on the axis title's row, clear of the bars.
    svg.Text("text",
             {{"x", Num(f.x0 + f.width)},
              {"y", Num(f.y_bottom + 34)},
              {"text-anchor", "end"},
              {"font-size", "11"},
              {"fill", kMuted}},
             "bars cut at " + KiB(f.top_bytes) + " KiB (tallest " +
                 FormatSize(static_cast<int64_t>(f.highest)) + ")");
  }

  // The arena extent (highest offset + size) as a step line over the bars: the gap to the
  // bar is what the first-fit layout loses to fragmentation at that step.
  std::string d;
  for (size_t i = 0; i < chart.steps.size(); ++i) {
    const std::string y = Num(f.Y(static_cast<double>(chart.steps[i].arena_bytes)));
    d += (i == 0 ? "M" + Num(f.X(0)) + " " + y : " V" + y) + " H" + Num(f.X(i + 1));
  }
  if (!d.empty()) {
    svg.Empty("path", {{"id", "arena-extent"},
                       {"d", d},
                       {"fill", "none"},
                       {"stroke", kArenaStroke},
                       {"stroke-width", "1.3"}});
  }
  // Each stage's layout lower bound, dotted across the stage, where the layout is above it:
  // the distance to the arena extent is what a better layout could still win.
  for (const ChartStage& stage : chart.stages) {
    if (stage.lower_bound_bytes <= 0 || stage.lower_bound_bytes >= stage.arena_bytes) continue;
    const std::string y = Num(f.Y(static_cast<double>(stage.lower_bound_bytes)));
    svg.Empty("line", {{"id", "bound-stage-" + std::to_string(stage.id)},
                       {"x1", Num(f.X(stage.first_step))},
                       {"x2", Num(f.X(stage.last_step + 1))},
                       {"y1", y},
                       {"y2", y},
                       {"stroke", kBoundStroke},
                       {"stroke-width", "1.5"},
                       {"stroke-dasharray", "2 3"}});
  }
}

size_t PeakStep(const TimelineChart& chart) {
  size_t peak = 0;
  for (size_t i = 1; i < chart.steps.size(); ++i) {
    if (chart.steps[i].arena_bytes > chart.steps[peak].arena_bytes) peak = i;
  }
  return peak;
}

void DrawBudgetAndPeak(SvgWriter& svg, const TimelineChart& chart, const Frame& f) {
  const double budget_y = f.Y(static_cast<double>(chart.budget_bytes));
  const std::string y = Num(budget_y);
  svg.Empty("line", {{"id", "budget-line"},
                     {"x1", Num(f.x0)},
                     {"x2", Num(f.x0 + f.width)},
                     {"y1", y},
                     {"y2", y},
                     {"stroke", kBudgetStroke},
                     {"stroke-width", "2"},
                     {"stroke-dasharray", "7 4"}});
  const size_t peak = PeakStep(chart);
  const double peak_x = f.X(peak) + f.bar / 2;
  // The budget label sits at the end of the line away from the peak, so they never meet.
  const bool peak_right = peak_x > f.x0 + f.width / 2;
  const Attrs halo = {{"stroke", "#ffffff"}, {"stroke-width", "3"}, {"paint-order", "stroke"}};
  Attrs label = {{"x", Num(peak_right ? f.x0 + 6 : f.x0 + f.width - 6)},
                 {"y", Num(budget_y - 6)},
                 {"text-anchor", peak_right ? "start" : "end"},
                 {"font-size", "12"},
                 {"font-weight", "bold"},
                 {"fill", kBudgetStroke}};
  label.insert(label.end(), halo.begin(), halo.end());
  svg.Text("text", label, "budget " + FormatSize(chart.budget_bytes));

  if (chart.steps.empty()) return;
  const double py = f.Y(static_cast<double>(chart.steps[peak].arena_bytes));
  svg.Empty("circle", {{"cx", Num(peak_x)}, {"cy", Num(py)}, {"r", "3"}, {"fill", kArenaStroke}});
  // Keep the label inside the plot: anchor it toward the middle, below the top edge.
  Attrs peak_label = {{"x", Num(peak_right ? peak_x - 6 : peak_x + 6)},
                      {"y", Num(std::max(py - 6, kTop + 28))},
                      {"text-anchor", peak_right ? "end" : "start"},
                      {"font-size", "11"},
                      {"fill", kInk}};
  peak_label.insert(peak_label.end(), halo.begin(), halo.end());
  svg.Text(
      "text", peak_label,
      "peak " + FormatSize(chart.steps[peak].arena_bytes) + " at step " + std::to_string(peak));
}

void DrawLegend(SvgWriter& svg, const TimelineChart& chart, const Frame& f) {
  bool tiled = false, chain = false, over = false;
  for (const ChartStage& s : chart.stages) {
    tiled = tiled || (s.fits && s.strategy == plan::StageStrategy::kTiled);
    chain = chain || (s.fits && s.strategy == plan::StageStrategy::kChain);
    over = over || !s.fits;
  }
  struct Item {
    const char* colour;
    const char* text;
    int kind;  // 0 swatch, 1 solid line, 2 dashed line, 3 dotted line
  };
  std::vector<Item> items = {{kNormalFill, "live bytes, normal stage", 0}};
  if (tiled) items.push_back({kTiledFill, "tiled stage (one tile)", 0});
  if (chain) items.push_back({kChainFill, "chain (one tile)", 0});
  if (over) items.push_back({kOverFill, "stage over budget", 0});
  items.push_back({kArenaStroke, "arena extent", 1});
  bool above_bound = false;
  for (const ChartStage& s : chart.stages) {
    above_bound = above_bound || (s.lower_bound_bytes > 0 && s.lower_bound_bytes < s.arena_bytes);
  }
  if (above_bound) items.push_back({kBoundStroke, "layout lower bound", 3});
  items.push_back({kBudgetStroke, "budget", 2});

  double y = f.y_bottom + 58 + LanesHeight(chart);
  double x = f.x0;
  svg.Open("g", {{"id", "legend"}, {"font-size", "12"}, {"fill", kInk}});
  for (const Item& item : items) {
    // ~6.3 px per character at 12 px, plus the swatch; wrap to a second row when full.
    const double item_width = 22 + 6.3 * static_cast<double>(std::string(item.text).size());
    if (x + item_width > f.x0 + f.width && x > f.x0) {
      x = f.x0;
      y += 18;
    }
    if (item.kind == 0) {
      svg.Empty("rect", {{"x", Num(x)},
                         {"y", Num(y - 10)},
                         {"width", "14"},
                         {"height", "12"},
                         {"fill", item.colour}});
    } else {
      Attrs line = {{"x1", Num(x)},     {"x2", Num(x + 18)},     {"y1", Num(y - 4)},
                    {"y2", Num(y - 4)}, {"stroke", item.colour}, {"stroke-width", "2"}};
      if (item.kind == 2) line.push_back({"stroke-dasharray", "7 4"});
      if (item.kind == 3) line.push_back({"stroke-dasharray", "2 3"});
      svg.Empty("line", line);
    }
    svg.Text("text", {{"x", Num(x + 22)}, {"y", Num(y)}}, item.text);
    x += item_width + 18;
  }
  svg.Close();
}

// One lane per other memory: its bytes per step on the lane's own scale (its capacity
// when given, else its peak), its name on the left and its peak on the right.
void DrawLanes(SvgWriter& svg, const TimelineChart& chart, const Frame& f) {
  const double gap = f.bar >= 6 ? f.bar * 0.18 : 0.5;
  for (size_t k = 0; k < chart.lanes.size(); ++k) {
    const ChartLane& lane = chart.lanes[k];
    const double base = f.y_bottom + kLanesTop + kLaneHeight * static_cast<double>(k) + kLaneBar;
    int64_t peak = 0;
    for (int64_t b : lane.step_bytes) peak = std::max(peak, b);
    const double scale = static_cast<double>(
        std::max<int64_t>(lane.capacity > 0 ? std::max(lane.capacity, peak) : peak, 1));
    svg.Open("g", {{"id", "lane-" + lane.memory}, {"font-size", "11"}, {"fill", kInk}});
    svg.Empty("rect", {{"x", Num(f.x0)},
                       {"y", Num(base - kLaneBar)},
                       {"width", Num(f.width)},
                       {"height", Num(kLaneBar)},
                       {"fill", "#f4f4f4"},
                       {"stroke", "#d6d6d6"}});
    svg.Text("text",
             {{"x", Num(f.x0 - 6)},
              {"y", Num(base - kLaneBar / 2 + 4)},
              {"text-anchor", "end"},
              {"font-weight", "bold"}},
             lane.memory);
    for (size_t i = 0; i < lane.step_bytes.size() && i < chart.steps.size(); ++i) {
      const double h = kLaneBar * static_cast<double>(lane.step_bytes[i]) / scale;
      if (h <= 0) continue;
      svg.Open("rect", {{"class", "lane-bar"},
                        {"x", Num(f.X(i) + gap / 2)},
                        {"y", Num(base - h)},
                        {"width", Num(f.bar - gap)},
                        {"height", Num(h)},
                        {"fill", kMuted}});
      svg.Text("title", {},
               lane.memory + " (" + lane.role + ") at step " + std::to_string(i) + ": " +
                   FormatSize(lane.step_bytes[i]));
      svg.Close();
    }
    svg.Text("text", {{"x", Num(f.x0)}, {"y", Num(base + 13)}, {"fill", kMuted}},
             lane.role + ": peak " + FormatSize(peak) +
                 (lane.capacity > 0 ? " of " + FormatSize(lane.capacity) : std::string()));
    svg.Close();
  }
}

}  // namespace

std::string TimelineSvg(const TimelineChart& chart) {
  const Frame f = MakeFrame(chart);
  SvgWriter svg(kLeft + f.width + kRight, kTop + kPlotHeight + kBottom + LanesHeight(chart));
  svg.Text("title", {}, chart.model + " memory timeline");
  svg.Empty("rect", {{"width", "100%"}, {"height", "100%"}, {"fill", "#ffffff"}});
  DrawHeading(svg, chart, f);
  DrawStages(svg, chart, f);
  DrawAxes(svg, chart, f);
  DrawBars(svg, chart, f);
  DrawBudgetAndPeak(svg, chart, f);
  DrawLanes(svg, chart, f);
  DrawLegend(svg, chart, f);
  return svg.Finish();
}

}  // namespace tigris::report
