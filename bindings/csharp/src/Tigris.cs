// Tigris.cs: the public API. Model, Analysis and Plan are IDisposable; failures throw
// TigrisException. Sizes are bytes (ulong) or human text parsed by Tigris.ParseSize.
using System;
using System.Runtime.InteropServices;

namespace Tigris
{
    public static class Library
    {
        public static string Version { get { return Native.Str(Native.tigris_version()); } }

        /// <summary>"256K", "1.5MiB", "262144" (K = 1024), parsed by tigris_parse_size.</summary>
        public static ulong ParseSize(string text)
        {
            ulong bytes;
            TigrisException.Check(Native.tigris_parse_size(out bytes, text));
            return bytes;
        }
    }

    public enum Verdict { Ok = 0, Partitioned = 1, Tiled = 2, NeedsWork = 3 }

    public sealed class Model : IDisposable
    {
        readonly ModelHandle h;
        Model(IntPtr raw) { h = new ModelHandle(raw); }

        public static Model Load(string path)
        {
            IntPtr raw;
            TigrisException.Check(Native.tigris_load(out raw, path, IntPtr.Zero));
            return new Model(raw);
        }

        public static Model FromBytes(byte[] data)
        {
            IntPtr raw;
            TigrisException.Check(Native.tigris_load_from_memory(out raw, data, (UIntPtr)data.Length, IntPtr.Zero));
            return new Model(raw);
        }

        public void Dispose() { h.Dispose(); }

        public string Name { get { return Native.Str(Native.tigris_model_name(h)); } }
        public int OpCount { get { return (int)Native.tigris_model_op_count(h); } }
        public int TensorCount { get { return (int)Native.tigris_model_tensor_count(h); } }
        public string Json { get { return Native.Str(Native.tigris_model_json(h)); } }

        void Check(int status)
        {
            if (status == 0) return;
            string msg = Native.Str(Native.tigris_model_last_error(h));
            throw new TigrisException(status, msg.Length > 0 ? msg : Native.Str(Native.tigris_last_error()));
        }

        /// <summary>Plans the model under the budgets; slow / flash 0 = not given.</summary>
        public Analysis Analyze(ulong fast, ulong slow = 0, ulong flash = 0)
        {
            var o = new Native.AnalyzeOptions();
            TigrisException.Check(Native.tigris_analyze_options_init(ref o, Native.AnalyzeOptionsVersion));
            o.FastBytes = fast; o.SlowBytes = slow; o.FlashBytes = flash;
            IntPtr raw;
            Check(Native.tigris_analyze(out raw, h, ref o));
            return new Analysis(new AnalysisHandle(raw));
        }

        public Analysis Analyze(string fast) { return Analyze(Library.ParseSize(fast)); }

        /// <summary>Compiles a plan. xip: weights read in place from flash.</summary>
        public Plan Plan(ulong fast, bool xip, bool lz4 = false, ulong slow = 0, ulong flash = 0)
        {
            var o = new Native.PlanOptions();
            TigrisException.Check(Native.tigris_plan_options_init(ref o, Native.PlanOptionsVersion));
            o.FastBytes = fast; o.SlowBytes = slow; o.FlashBytes = flash;
            o.Xip = xip ? 1 : 0;
            o.Compression = lz4 ? 1 : 0;
            IntPtr raw;
            Check(Native.tigris_plan(out raw, h, ref o));
            return new Plan(new PlanHandle(raw));
        }
    }

    public sealed class Analysis : IDisposable
    {
        readonly AnalysisHandle h;
        internal Analysis(AnalysisHandle handle) { h = handle; }
        public void Dispose() { h.Dispose(); }

        public Verdict Verdict { get { return (Verdict)Native.tigris_analysis_verdict(h); } }
        public ulong ScheduledPeakBytes { get { return Native.tigris_analysis_scheduled_peak_bytes(h); } }
        public ulong NaivePeakBytes { get { return Native.tigris_analysis_naive_peak_bytes(h); } }
        public ulong SlowPeakBytes { get { return Native.tigris_analysis_slow_peak_bytes(h); } }
        public int StageCount { get { return (int)Native.tigris_analysis_stage_count(h); } }
        public int TiledStageCount { get { return (int)Native.tigris_analysis_tiled_stage_count(h); } }
        public int ChainCount { get { return (int)Native.tigris_analysis_chain_count(h); } }
        public ulong Macs { get { return Native.tigris_analysis_macs(h); } }
        /// <summary>The report `tigris analyze --json` prints.</summary>
        public string Json { get { return Native.Str(Native.tigris_analysis_json(h)); } }
    }

    public sealed class Plan : IDisposable
    {
        readonly PlanHandle h;
        internal Plan(PlanHandle handle) { h = handle; }
        public void Dispose() { h.Dispose(); }

        public ulong FileBytes { get { return Native.tigris_plan_file_bytes(h); } }
        public ulong FastArenaBytes { get { return Native.tigris_plan_fast_arena_bytes(h); } }

        /// <summary>The .tgrs file bytes (deterministic).</summary>
        public byte[] Emit()
        {
            IntPtr data;
            UIntPtr size;
            TigrisException.Check(Native.tigris_emit(out data, out size, h));
            try
            {
                var bytes = new byte[(long)size];
                Marshal.Copy(data, bytes, 0, bytes.Length);
                return bytes;
            }
            finally { Native.tigris_free(data); }
        }

        public void Save(string path) { TigrisException.Check(Native.tigris_emit_to_file(h, path)); }
    }
}
