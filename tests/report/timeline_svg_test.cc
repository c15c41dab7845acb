// The memory timeline chart: well-formed XML whatever the names, one bar per step, bars
// and the budget line on one scale, cut bars when the model is far over budget, and the
// legend and markers for tiled stages and chains.
#include "report/timeline_svg.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "report/svg_writer.h"
#include "support/process.h"
#include "support/test_env.h"

namespace tigris::report {
namespace {

using plan::StageStrategy;

// The `index`-th start tag containing `marker`, up to its closing '>'.
std::string Tag(const std::string& svg, const std::string& marker, size_t index = 0) {
  size_t at = svg.find(marker);
  for (size_t i = 0; i < index && at != std::string::npos; ++i) at = svg.find(marker, at + 1);
  if (at == std::string::npos) return "";
  const size_t begin = svg.rfind('<', at);
  return svg.substr(begin, svg.find('>', at) - begin + 1);
}

double Attr(const std::string& tag, const std::string& name) {
  const std::string key = " " + name + "=\"";
  const size_t at = tag.find(key);
  if (at == std::string::npos) {
    ADD_FAILURE() << "no " << name << " in " << tag;
    return -1;
  }
  return std::stod(tag.substr(at + key.size()));
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

ChartStep Step(const std::string& op, int stage, int64_t live, int64_t arena) {
  return {op, stage, live, arena};
}

ChartStage Band(int id, size_t first, size_t last, StageStrategy strategy, int chain = -1,
                bool fits = true) {
  ChartStage s;
  s.id = id;
  s.first_step = first;
  s.last_step = last;
  s.strategy = strategy;
  s.chain = chain;
  s.fits = fits;
  if (strategy != StageStrategy::kNormal) {
    s.tile_rows = 4;
    s.tile_count = 7;
  }
  return s;
}

// Budget 64 KiB; step 1 at exactly the budget, step 2 at half of it.
TimelineChart FittingChart() {
  TimelineChart c;
  c.model = "net <&> \"quoted\" 'model'";
  c.verdict = "tiled";
  c.budget_bytes = 64 * 1024;
  c.scheduled_peak_bytes = 64 * 1024;
  c.naive_peak_bytes = 200 * 1024;
  c.steps = {Step("conv<1>", 0, 16 * 1024, 20 * 1024), Step("dw&2", 0, 64 * 1024, 64 * 1024),
             Step("pw\"3\"", 1, 32 * 1024, 40 * 1024), Step("relu'4", 2, 8 * 1024, 8 * 1024),
             Step("add", 2, 12 * 1024, 16 * 1024)};
  c.stages = {Band(0, 0, 1, StageStrategy::kChain, 0), Band(1, 2, 2, StageStrategy::kTiled),
              Band(2, 3, 4, StageStrategy::kNormal)};
  return c;
}

TEST(TimelineSvgTest, IsWellFormedXmlWhateverTheNames) {
  const std::string svg = TimelineSvg(FittingChart());
  const std::string path =
      (std::filesystem::temp_directory_path() / "tigris_timeline_test.svg").string();
  std::ofstream(path, std::ios::binary) << svg;
  // An independent XML parser: Python's expat-based ElementTree.
  const auto r = testing::RunCommand(
      testing::Python() +
      " -c \"import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); "
      "print(r.tag, len(r.findall('.//{http://www.w3.org/2000/svg}rect')))\" " +
      path);
  std::remove(path.c_str());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("{http://www.w3.org/2000/svg}svg ", 0), 0u) << r.out;
  // Raw names never reach the markup unescaped.
  EXPECT_EQ(svg.find("conv<1>"), std::string::npos);
  EXPECT_NE(svg.find("conv&lt;1&gt;"), std::string::npos);
  EXPECT_NE(svg.find("net &lt;&amp;&gt; &quot;quoted&quot; &apos;model&apos;"), std::string::npos);
}

// A lane per other memory (issue 15), each on its own scale: its capacity when given.
TEST(TimelineSvgTest, LanesShowEachMemoryOnItsOwnScale) {
  TimelineChart c = FittingChart();
  c.scratch_memory = "DTCM";
  c.lanes = {{"PSRAM", "spills", 0, {0, 1024, 4096, 4096, 0}},
             {"FLASH", "weights each op reads in place", 8192, {2048, 0, 8192, 0, 4096}}};
  const std::string svg = TimelineSvg(c);
  EXPECT_NE(svg.find("of 64 KiB DTCM budget"), std::string::npos);
  EXPECT_NE(svg.find("DTCM, scratch (KiB)"), std::string::npos);
  ASSERT_NE(svg.find("<g id=\"lane-PSRAM\""), std::string::npos);
  ASSERT_NE(svg.find("<g id=\"lane-FLASH\""), std::string::npos);
  // Zero steps draw nothing: 3 bars in PSRAM's lane, 3 in FLASH's.
  EXPECT_EQ(Count(svg, "class=\"lane-bar\""), 6u);
  // PSRAM has no capacity: its peak (4096) is the full 26 px; 1024 is a quarter of it.
  const double full = Attr(Tag(svg, "class=\"lane-bar\"", 1), "height");
  EXPECT_DOUBLE_EQ(full, 26);
  EXPECT_DOUBLE_EQ(Attr(Tag(svg, "class=\"lane-bar\"", 0), "height"), 6.5);
  // FLASH's capacity 8192 is its scale: 2048 is a quarter, 8192 full, 4096 half.
  EXPECT_DOUBLE_EQ(Attr(Tag(svg, "class=\"lane-bar\"", 3), "height"), 6.5);
  EXPECT_DOUBLE_EQ(Attr(Tag(svg, "class=\"lane-bar\"", 4), "height"), 26);
  EXPECT_DOUBLE_EQ(Attr(Tag(svg, "class=\"lane-bar\"", 5), "height"), 13);
  // Bars sit on their lane's baseline, under the step's plot bar.
  EXPECT_DOUBLE_EQ(Attr(Tag(svg, "class=\"lane-bar\"", 0), "x"),
                   Attr(Tag(svg, "class=\"bar\"", 1), "x"));
  EXPECT_NE(svg.find("spills: peak 4 KiB"), std::string::npos);
  EXPECT_NE(svg.find("weights each op reads in place: peak 8 KiB of 8 KiB"), std::string::npos);
  // The canvas grows by the lanes.
  const TimelineChart plain = FittingChart();
  EXPECT_GT(Attr(Tag(svg, "<svg "), "height"), Attr(Tag(TimelineSvg(plain), "<svg "), "height"));
}

TEST(TimelineSvgTest, OneBarPerStepAndATooltipNamingItsOp) {
  const TimelineChart c = FittingChart();
  const std::string svg = TimelineSvg(c);
  EXPECT_EQ(Count(svg, "class=\"bar\""), c.steps.size());
  EXPECT_NE(svg.find("step 2: pw&quot;3&quot;"), std::string::npos);
  // Bars advance left to right in step order with equal widths.
  const double w = Attr(Tag(svg, "class=\"bar\"", 0), "width");
  for (size_t i = 1; i < c.steps.size(); ++i) {
    EXPECT_GT(Attr(Tag(svg, "class=\"bar\"", i), "x"), Attr(Tag(svg, "class=\"bar\"", i - 1), "x"));
    EXPECT_DOUBLE_EQ(Attr(Tag(svg, "class=\"bar\"", i), "width"), w);
  }
}

TEST(TimelineSvgTest, BudgetLineAndBarsShareOneScale) {
  const std::string svg = TimelineSvg(FittingChart());
  const std::string line = Tag(svg, "id=\"budget-line\"");
  ASSERT_FALSE(line.empty());
  const double budget_y = Attr(line, "y1");
  EXPECT_DOUBLE_EQ(Attr(line, "y2"), budget_y);  // horizontal
  EXPECT_NE(line.find("stroke-dasharray"), std::string::npos);
  EXPECT_NE(svg.find(">budget 64 KiB<"), std::string::npos);

  // Step 1 holds exactly the budget: its bar's top is the budget line. Step 2 holds half:
  // its bar is half as tall, from the same baseline (0 bytes).
  const std::string full = Tag(svg, "class=\"bar\"", 1);
  const std::string half = Tag(svg, "class=\"bar\"", 2);
  EXPECT_NEAR(Attr(full, "y"), budget_y, 0.051);  // coordinates carry one decimal
  const double base = Attr(full, "y") + Attr(full, "height");
  EXPECT_NEAR(Attr(half, "y") + Attr(half, "height"), base, 0.11);
  EXPECT_NEAR(Attr(half, "height"), Attr(full, "height") / 2, 0.11);
  EXPECT_EQ(svg.find("bars cut"), std::string::npos);
}

TEST(TimelineSvgTest, AStageAboveItsLayoutBoundShowsTheBoundAcrossTheStage) {
  TimelineChart c = FittingChart();
  // Stage 2 (steps 3-4): arena 16 KiB, its live bound 12 KiB (the most live at one step);
  // the others are at their bound and get no line.
  for (ChartStage& s : c.stages) s.lower_bound_bytes = s.arena_bytes = 64 * 1024;
  c.stages[2].arena_bytes = 16 * 1024;
  c.stages[2].lower_bound_bytes = 12 * 1024;
  const std::string svg = TimelineSvg(c);
  EXPECT_EQ(Count(svg, "id=\"bound-stage-"), 1u);
  const std::string bound = Tag(svg, "id=\"bound-stage-2\"");
  ASSERT_FALSE(bound.empty());
  // On the bars' scale: at the height of step 4's bar (12 KiB live), across the two steps'
  // slots: from after step 2's bar to past step 4's, two slots wide.
  const std::string bar2 = Tag(svg, "class=\"bar\"", 2), bar3 = Tag(svg, "class=\"bar\"", 3),
                    bar4 = Tag(svg, "class=\"bar\"", 4);
  const double slot = Attr(bar3, "x") - Attr(bar2, "x"), width = Attr(bar3, "width");
  EXPECT_NEAR(Attr(bound, "y1"), Attr(bar4, "y"), 0.051);
  EXPECT_DOUBLE_EQ(Attr(bound, "y2"), Attr(bound, "y1"));
  EXPECT_GE(Attr(bound, "x1"), Attr(bar2, "x") + width);
  EXPECT_LE(Attr(bound, "x1"), Attr(bar3, "x"));
  EXPECT_GE(Attr(bound, "x2"), Attr(bar4, "x") + width);
  EXPECT_NEAR(Attr(bound, "x2") - Attr(bound, "x1"), 2 * slot, 0.11);
  EXPECT_NE(svg.find(">layout lower bound<"), std::string::npos);
  // At the bound everywhere: no line, no legend entry.
  c.stages[2].arena_bytes = 12 * 1024;
  const std::string tight = TimelineSvg(c);
  EXPECT_EQ(tight.find("bound-stage-"), std::string::npos);
  EXPECT_EQ(tight.find("layout lower bound"), std::string::npos);
}

TEST(TimelineSvgTest, FarOverBudgetCutsTheAxisSoFittingStagesStayVisible) {
  TimelineChart c = FittingChart();
  c.verdict = "needs_work";
  c.steps[3].live_bytes = c.steps[3].arena_bytes = 40 * 64 * 1024;  // 40 budgets
  c.stages[2].fits = false;
  const std::string svg = TimelineSvg(c);
  const double budget_y = Attr(Tag(svg, "id=\"budget-line\""), "y1");
  const std::string full = Tag(svg, "class=\"bar\"", 1);  // exactly the budget
  const std::string huge = Tag(svg, "class=\"bar\"", 3);
  EXPECT_NEAR(Attr(full, "y"), budget_y, 0.051);
  // Linear, the huge bar would be 40 times the budget bar; cut, it is at most the axis
  // (3 budgets plus headroom, report/timeline_svg.cc).
  EXPECT_LT(Attr(huge, "height"), 4 * Attr(full, "height"));
  EXPECT_GT(Attr(huge, "height"), 2 * Attr(full, "height"));
  EXPECT_NE(svg.find("bars cut at"), std::string::npos);
  EXPECT_NE(svg.find("stage over budget"), std::string::npos);  // legend entry
  EXPECT_NE(svg.find("(tallest 2.5 MiB)"), std::string::npos);  // 40 * 64 KiB
}

TEST(TimelineSvgTest, TiledStagesAndChainsAreMarkedAndInTheLegend) {
  const std::string svg = TimelineSvg(FittingChart());
  EXPECT_NE(svg.find("tiled stage (one tile)"), std::string::npos);
  EXPECT_NE(svg.find("chain (one tile)"), std::string::npos);
  EXPECT_EQ(svg.find("stage over budget"), std::string::npos);  // nothing is over
  // Chain 0 spans steps 0-1: one marker, labelled as wide as it fits.
  EXPECT_EQ(Count(svg, ">chain 0"), 1u) << svg;
  // Bars take their stage's colour: the chain's first bar and the tiled stage's differ
  // from the normal stage's.
  auto fill = [&](size_t bar) {
    const std::string tag = Tag(svg, "class=\"bar\"", bar);
    return tag.substr(tag.find(" fill="), 17);  // ' fill="#rrggbb"'
  };
  EXPECT_NE(fill(0), fill(3));  // chain vs normal
  EXPECT_NE(fill(2), fill(3));  // tiled vs normal
  EXPECT_NE(fill(0), fill(2));  // chain vs tiled

  TimelineChart plain = FittingChart();
  for (ChartStage& s : plain.stages) s.strategy = StageStrategy::kNormal;
  const std::string plain_svg = TimelineSvg(plain);
  EXPECT_EQ(plain_svg.find("tiled stage"), std::string::npos);
  EXPECT_EQ(plain_svg.find("chain (one tile)"), std::string::npos);
}

TEST(TimelineSvgTest, EmptyChartStillDraws) {
  TimelineChart c;
  c.budget_bytes = 1024;
  const std::string svg = TimelineSvg(c);
  EXPECT_EQ(Count(svg, "class=\"bar\""), 0u);
  EXPECT_NE(svg.find("id=\"budget-line\""), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

TEST(TimelineChartTest, ChartFromPlanCopiesStepsStagesAndChainTiles) {
  ir::Graph g;
  g.name = "three_ops";
  for (const char* name : {"first", "second", "third"}) {
    ir::Op op;
    op.name = name;
    g.ops.push_back(op);
  }
  plan::PlanResult p;
  p.budget.fast_bytes = 4096;
  p.scheduled_peak_bytes = 4000;
  p.naive_peak_bytes = 9000;
  p.verdict = plan::Verdict::kTiled;
  plan::Chain chain;
  chain.stages = {0, 1};
  chain.tile.tile_rows = 3;
  chain.tile.count = 5;
  p.chains = {chain};
  plan::Stage s0, s1, s2;
  s0.id = 0, s0.ops = {0}, s0.strategy = StageStrategy::kChain, s0.chain = 0;
  s1.id = 1, s1.ops = {1}, s1.strategy = StageStrategy::kChain, s1.chain = 0;
  s2.id = 2, s2.ops = {2};
  p.stages = {s0, s1, s2};
  p.timeline = {{0, 0, 100, 200}, {1, 1, 300, 400}, {2, 2, 500, 600}};

  const TimelineChart c = ChartFromPlan(g, p);
  EXPECT_EQ(c.model, "three_ops");
  EXPECT_EQ(c.verdict, "tiled");
  EXPECT_EQ(c.budget_bytes, 4096);
  EXPECT_EQ(c.scheduled_peak_bytes, 4000);
  EXPECT_EQ(c.naive_peak_bytes, 9000);
  ASSERT_EQ(c.steps.size(), 3u);
  EXPECT_EQ(c.steps[1].op, "second");
  EXPECT_EQ(c.steps[2].live_bytes, 500);
  EXPECT_EQ(c.steps[2].arena_bytes, 600);
  ASSERT_EQ(c.stages.size(), 3u);
  EXPECT_EQ(c.stages[1].first_step, 1u);
  EXPECT_EQ(c.stages[1].last_step, 1u);
  EXPECT_EQ(c.stages[1].chain, 0);
  EXPECT_EQ(c.stages[1].tile_rows, 3);  // a chain stage shows its chain's loop
  EXPECT_EQ(c.stages[1].tile_count, 5);
  EXPECT_EQ(c.stages[2].tile_count, 0);
}

TEST(SvgWriterTest, EscapesAndNumbers) {
  EXPECT_EQ(XmlEscape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
  EXPECT_EQ(XmlEscape(std::string("x\x01y")), "x?y");  // not allowed in XML 1.0
  EXPECT_EQ(Num(12.0), "12");
  EXPECT_EQ(Num(12.25), "12.2");  // printf rounds half to even in binary: 12.25 -> 12.2
  EXPECT_EQ(Num(-0.01), "0");
  EXPECT_EQ(Num(3.96), "4");
}

}  // namespace
}  // namespace tigris::report
