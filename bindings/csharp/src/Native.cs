// Native.cs: P/Invoke declarations of include/tigris.h (the raw layer; internal).
// Strings returned by the library are owned by it, so they come back as IntPtr and are
// copied with Marshal.PtrToStringAnsi (the marshaller must not free them).
using System;
using System.Runtime.InteropServices;

namespace Tigris
{
    internal static class Native
    {
        const string Lib = "tigris"; // libtigris.so, found through LD_LIBRARY_PATH

        [StructLayout(LayoutKind.Sequential)]
        internal struct AnalyzeOptions
        {
            public int Version;
            public ulong FastBytes, SlowBytes, FlashBytes;
        }

        [StructLayout(LayoutKind.Sequential)]
        internal struct PlanOptions
        {
            public int Version;
            public ulong FastBytes, SlowBytes, FlashBytes;
            public int Xip;
            public int Compression;
        }

        internal const int AnalyzeOptionsVersion = 1; // TIGRIS_ANALYZE_OPTIONS_VERSION
        internal const int PlanOptionsVersion = 1;    // TIGRIS_PLAN_OPTIONS_VERSION

        [DllImport(Lib)] internal static extern IntPtr tigris_version();
        [DllImport(Lib)] internal static extern IntPtr tigris_status_name(int status);
        [DllImport(Lib)] internal static extern IntPtr tigris_last_error();
        [DllImport(Lib)] internal static extern int tigris_parse_size(out ulong bytes, string text);

        [DllImport(Lib)] internal static extern int tigris_load(out IntPtr model, string path, IntPtr options);
        [DllImport(Lib)] internal static extern int tigris_load_from_memory(out IntPtr model, byte[] data, UIntPtr size, IntPtr options);
        [DllImport(Lib)] internal static extern void tigris_model_free(IntPtr model);
        [DllImport(Lib)] internal static extern IntPtr tigris_model_last_error(ModelHandle model);
        [DllImport(Lib)] internal static extern IntPtr tigris_model_name(ModelHandle model);
        [DllImport(Lib)] internal static extern UIntPtr tigris_model_op_count(ModelHandle model);
        [DllImport(Lib)] internal static extern UIntPtr tigris_model_tensor_count(ModelHandle model);
        [DllImport(Lib)] internal static extern IntPtr tigris_model_json(ModelHandle model);

        [DllImport(Lib)] internal static extern int tigris_analyze_options_init(ref AnalyzeOptions o, int version);
        [DllImport(Lib)] internal static extern int tigris_analyze(out IntPtr analysis, ModelHandle model, ref AnalyzeOptions o);
        [DllImport(Lib)] internal static extern void tigris_analysis_free(IntPtr analysis);
        [DllImport(Lib)] internal static extern int tigris_analysis_verdict(AnalysisHandle a);
        [DllImport(Lib)] internal static extern ulong tigris_analysis_scheduled_peak_bytes(AnalysisHandle a);
        [DllImport(Lib)] internal static extern ulong tigris_analysis_naive_peak_bytes(AnalysisHandle a);
        [DllImport(Lib)] internal static extern ulong tigris_analysis_slow_peak_bytes(AnalysisHandle a);
        [DllImport(Lib)] internal static extern UIntPtr tigris_analysis_stage_count(AnalysisHandle a);
        [DllImport(Lib)] internal static extern UIntPtr tigris_analysis_tiled_stage_count(AnalysisHandle a);
        [DllImport(Lib)] internal static extern UIntPtr tigris_analysis_chain_count(AnalysisHandle a);
        [DllImport(Lib)] internal static extern ulong tigris_analysis_macs(AnalysisHandle a);
        [DllImport(Lib)] internal static extern IntPtr tigris_analysis_json(AnalysisHandle a);

        [DllImport(Lib)] internal static extern int tigris_plan_options_init(ref PlanOptions o, int version);
        [DllImport(Lib)] internal static extern int tigris_plan(out IntPtr plan, ModelHandle model, ref PlanOptions o);
        [DllImport(Lib)] internal static extern void tigris_plan_free(IntPtr plan);
        [DllImport(Lib)] internal static extern ulong tigris_plan_file_bytes(PlanHandle p);
        [DllImport(Lib)] internal static extern ulong tigris_plan_fast_arena_bytes(PlanHandle p);
        [DllImport(Lib)] internal static extern int tigris_emit(out IntPtr bytes, out UIntPtr size, PlanHandle p);
        [DllImport(Lib)] internal static extern int tigris_emit_to_file(PlanHandle p, string path);
        [DllImport(Lib)] internal static extern void tigris_free(IntPtr bytes);

        internal static string Str(IntPtr p) { return p == IntPtr.Zero ? "" : Marshal.PtrToStringAnsi(p); }
    }
}
