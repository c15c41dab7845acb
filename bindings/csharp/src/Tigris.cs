// Tigris.cs: the public API. Model, Analysis and Plan are IDisposable; failures throw
// TigrisException. Sizes are bytes (ulong) or human text parsed by Tigris.ParseSize.
// Every call goes through tigris_c, the internal layer SWIG generates from bindings/tigris.i.
using System;
using System.Runtime.InteropServices;

namespace Tigris
{
    public static class Library
    {
        public static string Version { get { return tigris_c.tigris_version(); } }

        /// <summary>"256K", "1.5MiB", "262144" (K = 1024), parsed by tigris_parse_size.</summary>
        public static ulong ParseSize(string text)
        {
            ulong bytes;
            TigrisException.Check(tigris_c.tigris_parse_size(out bytes, text));
            return bytes;
        }
    }

    public enum Verdict { Ok = 0, Partitioned = 1, Tiled = 2, NeedsWork = 3 }

    /// <summary>How the planner packs each arena (docs/memory-model.md): Greedy, or Exact
    /// (a MILP solve per arena above its live bound, within a time limit for the plan).</summary>
    public enum Layout { Greedy = 0, Exact = 1 }

    /// <summary>What the planner optimizes (docs/planning.md, "Search"): None plans once;
    /// Memory and Latency search (the CLI's --objective), among plans recomputing at most
    /// maxRecomputePercent of the MACs (negative: no limit; --max-recompute).</summary>
    public enum Objective { None = 0, Memory = 1, Latency = 2 }

    public sealed partial class Model : IDisposable
    {
        readonly ModelHandle h;
        Model(IntPtr raw) { h = new ModelHandle(raw); }

        public static Model Load(string path)
        {
            IntPtr raw;
            TigrisException.Check(tigris_c.tigris_load(out raw, path, null));
            return new Model(raw);
        }

        public static Model FromBytes(byte[] data)
        {
            IntPtr raw;
            TigrisException.Check(tigris_c.tigris_load_from_memory(out raw, data, (uint)data.Length, null));
            return new Model(raw);
        }

        public void Dispose() { h.Dispose(); }

        public string Name { get { return tigris_c.tigris_model_name(h); } }
        public int OpCount { get { return (int)tigris_c.tigris_model_op_count(h); } }
        public int TensorCount { get { return (int)tigris_c.tigris_model_tensor_count(h); } }
        public string Json { get { return tigris_c.tigris_model_json(h); } }

        void Check(tigris_status status)
        {
            if (status == tigris_status.TIGRIS_OK) return;
            string msg = tigris_c.tigris_model_last_error(h);
            throw new TigrisException((int)status, msg.Length > 0 ? msg : tigris_c.tigris_last_error());
        }

        /// <summary>Plans the model under the budgets; slow / flash 0 = not given. layout and
        /// timeLimitSeconds are the CLI's --layout and --time-limit, objective and
        /// maxRecomputePercent its --objective and --max-recompute.</summary>
        public Analysis Analyze(ulong fast, ulong slow = 0, ulong flash = 0,
                                Layout layout = Layout.Greedy, double timeLimitSeconds = 10,
                                Objective objective = Objective.None,
                                double maxRecomputePercent = -1)
        {
            using (var o = new tigris_analyze_options())
            {
                TigrisException.Check(tigris_c.tigris_analyze_options_init(o, tigris_c.TIGRIS_ANALYZE_OPTIONS_VERSION));
                o.fast_bytes = fast; o.slow_bytes = slow; o.flash_bytes = flash;
                o.layout = (tigris_layout)layout; o.time_limit_seconds = timeLimitSeconds;
                o.objective = (tigris_objective)objective; o.max_recompute_percent = maxRecomputePercent;
                IntPtr raw;
                Check(tigris_c.tigris_analyze(out raw, h, o));
                return new Analysis(new AnalysisHandle(raw));
            }
        }

        public Analysis Analyze(string fast) { return Analyze(Library.ParseSize(fast)); }

        /// <summary>Compiles a plan. xip: weights read in place from flash. The other
        /// options as in Analyze.</summary>
        public Plan Plan(ulong fast, bool xip, bool lz4 = false, ulong slow = 0, ulong flash = 0,
                         Layout layout = Layout.Greedy, double timeLimitSeconds = 10,
                         Objective objective = Objective.None, double maxRecomputePercent = -1)
        {
            using (var o = new tigris_plan_options())
            {
                TigrisException.Check(tigris_c.tigris_plan_options_init(o, tigris_c.TIGRIS_PLAN_OPTIONS_VERSION));
                o.fast_bytes = fast; o.slow_bytes = slow; o.flash_bytes = flash;
                o.layout = (tigris_layout)layout; o.time_limit_seconds = timeLimitSeconds;
                o.objective = (tigris_objective)objective; o.max_recompute_percent = maxRecomputePercent;
                o.xip = xip ? 1 : 0;
                o.compression = lz4 ? tigris_compression.TIGRIS_COMPRESSION_LZ4 : tigris_compression.TIGRIS_COMPRESSION_NONE;
                IntPtr raw;
                Check(tigris_c.tigris_plan(out raw, h, o));
                return new Plan(new PlanHandle(raw));
            }
        }

        /// <summary>Compiles a plan for a part's memories instead of budgets: the YAML text
        /// of a target description (targetSource names it in messages), and placement rules
        /// when rulesYaml is given (`tigris compile --target T.yaml --rules R.yaml`,
        /// docs/memories.md).</summary>
        public Plan PlanForTarget(string targetYaml, string targetSource, string rulesYaml = null,
                                  string rulesSource = null, bool xip = false, bool lz4 = false)
        {
            using (var o = new tigris_plan_options())
            {
                TigrisException.Check(tigris_c.tigris_plan_options_init(o, tigris_c.TIGRIS_PLAN_OPTIONS_VERSION));
                o.xip = xip ? 1 : 0;
                o.compression = lz4 ? tigris_compression.TIGRIS_COMPRESSION_LZ4 : tigris_compression.TIGRIS_COMPRESSION_NONE;
                IntPtr raw;
                // tigris_plan_with (bindings/tigris.i) sets the rules strings for this call only.
                Check(tigris_c.tigris_plan_with(out raw, h, o, null, targetYaml, targetSource,
                                                rulesYaml, rulesSource));
                return new Plan(new PlanHandle(raw));
            }
        }
    }

    public sealed class Analysis : IDisposable
    {
        readonly AnalysisHandle h;
        internal Analysis(AnalysisHandle handle) { h = handle; }
        public void Dispose() { h.Dispose(); }

        public Verdict Verdict { get { return (Verdict)tigris_c.tigris_analysis_verdict(h); } }
        /// <summary>What Compile would throw for a plan whose stages all fit but that it
        /// refuses (the verdict is then NeedsWork); null when nothing was refused.</summary>
        public TigrisException Refusal
        {
            get
            {
                var status = tigris_c.tigris_analysis_refusal_status(h);
                if (status == tigris_status.TIGRIS_OK) return null;
                return new TigrisException((int)status, tigris_c.tigris_analysis_refusal(h));
            }
        }
        public ulong ScheduledPeakBytes { get { return tigris_c.tigris_analysis_scheduled_peak_bytes(h); } }
        public ulong NaivePeakBytes { get { return tigris_c.tigris_analysis_naive_peak_bytes(h); } }
        public ulong SlowPeakBytes { get { return tigris_c.tigris_analysis_slow_peak_bytes(h); } }
        public int StageCount { get { return (int)tigris_c.tigris_analysis_stage_count(h); } }
        public int TiledStageCount { get { return (int)tigris_c.tigris_analysis_tiled_stage_count(h); } }
        public int ChainCount { get { return (int)tigris_c.tigris_analysis_chain_count(h); } }
        public ulong Macs { get { return tigris_c.tigris_analysis_macs(h); } }
        /// <summary>The report `tigris analyze --json` prints.</summary>
        public string Json { get { return tigris_c.tigris_analysis_json(h); } }
    }

    public sealed partial class Plan : IDisposable
    {
        readonly PlanHandle h;
        internal Plan(PlanHandle handle) { h = handle; }
        public void Dispose() { h.Dispose(); }

        public ulong FileBytes { get { return tigris_c.tigris_plan_file_bytes(h); } }
        public ulong FastArenaBytes { get { return tigris_c.tigris_plan_fast_arena_bytes(h); } }

        /// <summary>The .tgrs file bytes (deterministic).</summary>
        public byte[] Emit()
        {
            IntPtr data;
            ulong size;
            TigrisException.Check(tigris_c.tigris_emit(out data, out size, h));
            try
            {
                var bytes = new byte[(long)size];
                Marshal.Copy(data, bytes, 0, bytes.Length);
                return bytes;
            }
            finally { tigris_c.tigris_free(data); }
        }

        public void Save(string path) { TigrisException.Check(tigris_c.tigris_emit_to_file(h, path)); }

        /// <summary>What the plan keeps in each memory, as JSON: [{"name", "size",
        /// "used_bytes", "peak_bytes", "traffic_bytes", "role"}].</summary>
        public string MemoriesJson { get { return tigris_c.tigris_plan_memories_json(h); } }
        /// <summary>What the search found (an objective other than None): the analysis
        /// JSON's "exploration" object; "null" for a plan made in one pass.</summary>
        public string ExplorationJson { get { return tigris_c.tigris_plan_exploration_json(h); } }

        /// <summary>Warnings from compiling (rules whose ids match no tensor), one per entry.</summary>
        public string[] Warnings
        {
            get
            {
                return tigris_c.tigris_plan_warnings(h).Split(new[] { '\n' },
                                                              StringSplitOptions.RemoveEmptyEntries);
            }
        }
    }
}
