// Run.cs: plans as values (C ABI 0.2): graph inputs and outputs (TensorInfo), plans read from
// .tgrs bytes, and Plan.Run on the host with the C99 runtime. tigris_plan_run takes arrays of
// tigris_run_io whose data pointers C reads and writes during the call, which SWIG's
// generated proxies cannot express; it is declared here by hand ([StructLayout] mirrors of
// the C structs, checked by the tests through every field they round-trip) and the managed
// arrays are pinned for the call.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace Tigris
{
    /// <summary>tigris_dtype (pinned values).</summary>
    public enum DType
    {
        Unknown = 0, Float32 = 1, Int8 = 2, UInt8 = 3, Int16 = 4, Int32 = 5, Int64 = 6,
        Float16 = 7, Float64 = 8, Bool = 9, UInt16 = 10,
    }

    /// <summary>A graph input or output: name, dtype, ONNX (NCHW) shape and, when quantized,
    /// its scales and zero points.</summary>
    public sealed class TensorInfo
    {
        public string Name { get; internal set; }
        public DType DType { get; internal set; }
        public long[] Shape { get; internal set; }
        public float[] Scales { get; internal set; }
        public int[] ZeroPoints { get; internal set; }

        public long Elements
        {
            get { long n = 1; foreach (long d in Shape) n *= d; return n; }
        }

        internal static TensorInfo Read(Func<tigris_tensor_info, tigris_status> fill, Func<string> error)
        {
            using (var info = new tigris_tensor_info())
            {
                info.version = tigris_c.TIGRIS_TENSOR_INFO_VERSION;
                tigris_status status = fill(info);
                if (status != tigris_status.TIGRIS_OK) throw new TigrisException((int)status, error());
                var t = new TensorInfo
                {
                    Name = info.name,
                    DType = (DType)info.dtype,
                    Shape = new long[(int)info.rank],
                    Scales = new float[(int)info.num_scales],
                    ZeroPoints = new int[(int)info.num_scales],
                };
                for (uint i = 0; i < t.Shape.Length; ++i) t.Shape[i] = tigris_c.tigris_tensor_info_dim(info, i);
                for (uint i = 0; i < t.Scales.Length; ++i)
                {
                    t.Scales[i] = tigris_c.tigris_tensor_info_scale(info, i);
                    t.ZeroPoints[i] = tigris_c.tigris_tensor_info_zero_point(info, i);
                }
                return t;
            }
        }
    }

    /// <summary>What one Plan.Run measured: the arenas, the highest byte touched in each (+1),
    /// the runtime's wall time.</summary>
    public struct RunStats
    {
        public ulong FastArenaBytes, SlowArenaBytes, FastHighWaterBytes, SlowHighWaterBytes;
        public double RunSeconds;
    }

    /// <summary>The outputs of one Plan.Run by name (float[], sbyte[] or byte[] arrays in the
    /// ONNX layout), their shapes, and the run's stats.</summary>
    public sealed class RunResult
    {
        public IDictionary<string, Array> Outputs { get; internal set; }
        public IDictionary<string, long[]> Shapes { get; internal set; }
        public RunStats Stats { get; internal set; }
    }

    internal static class NativeRun
    {
        [StructLayout(LayoutKind.Sequential)]
        internal struct RunIo { public int version; public int dtype; public IntPtr data; public UIntPtr size; }

        [StructLayout(LayoutKind.Sequential)]
        internal struct RunOptions { public int version; public ulong fast_bytes; public ulong slow_bytes; }

        [StructLayout(LayoutKind.Sequential)]
        internal struct Stats
        {
            public int version;
            public ulong fast_arena_bytes, slow_arena_bytes, fast_hwm_bytes, slow_hwm_bytes;
            public double run_seconds;
            public int runtime_status, failed_op, fast_untouched_beyond_hwm, slow_untouched_beyond_hwm;
        }

        // libtigris_csharp.so (the SWIG wrapper) is linked against libtigris.so, and dlsym on
        // it finds the library's symbols through that dependency: the same library, loaded
        // the same way, as every other call of this assembly.
        [DllImport("tigris_csharp", EntryPoint = "tigris_plan_run")]
        internal static extern int tigris_plan_run(PlanHandle plan, ref RunOptions options,
            [In] RunIo[] inputs, UIntPtr numInputs, [In] RunIo[] outputs, UIntPtr numOutputs,
            ref Stats stats);
    }

    public sealed partial class Plan
    {
        /// <summary>Reads a .tgrs file; the runtime's verifier checks it first (Status.InvalidPlan
        /// names the field and the rule a bad file breaks).</summary>
        public static Plan Load(string path)
        {
            IntPtr raw;
            TigrisException.Check(tigris_c.tigris_plan_from_file(out raw, path));
            return new Plan(new PlanHandle(raw));
        }

        /// <summary>Plan.Load for the bytes of a .tgrs file.</summary>
        public static Plan FromBytes(byte[] data)
        {
            IntPtr raw;
            TigrisException.Check(tigris_c.tigris_plan_from_memory(out raw, data, (uint)data.Length));
            return new Plan(new PlanHandle(raw));
        }

        string LastError()
        {
            string msg = tigris_c.tigris_plan_last_error(h);
            return msg.Length > 0 ? msg : tigris_c.tigris_last_error();
        }

        /// <summary>The plan's graph inputs (an int8 plan's quantized input is DType.Int8).</summary>
        public TensorInfo[] Inputs()
        {
            var list = new TensorInfo[(int)tigris_c.tigris_plan_input_count(h)];
            for (uint i = 0; i < list.Length; ++i) list[i] = TensorInfo.Read(info => tigris_c.tigris_plan_input(h, i, info), LastError);
            return list;
        }

        /// <summary>The plan's graph outputs.</summary>
        public TensorInfo[] Outputs()
        {
            var list = new TensorInfo[(int)tigris_c.tigris_plan_output_count(h)];
            for (uint i = 0; i < list.Length; ++i) list[i] = TensorInfo.Read(info => tigris_c.tigris_plan_output(h, i, info), LastError);
            return list;
        }

        static DType ArrayDType(Array a)
        {
            if (a is float[]) return DType.Float32;
            if (a is sbyte[]) return DType.Int8;
            if (a is byte[]) return DType.UInt8;
            if (a is int[]) return DType.Int32;
            return DType.Unknown;
        }

        static int ElementSize(DType d)
        {
            switch (d)
            {
                case DType.Float32: case DType.Int32: return 4;
                case DType.Int8: case DType.UInt8: return 1;
                default: return 0;
            }
        }

        static TigrisException Bad(string message)
        {
            return new TigrisException((int)Status.InvalidArgument, "Plan.Run: " + message);
        }

        /// <summary>Runs the plan once with the C99 runtime (the code a microcontroller runs),
        /// in arenas of the plan's sizes. Give every graph input by name as a float[], sbyte[],
        /// byte[] or int[] in the plan's dtype, or float[] for an int8 input (quantized with the
        /// plan's scale). dequantize returns int8 outputs as float[]. The output bytes equal
        /// those of `tigris run` on the same plan and input.</summary>
        public RunResult Run(IDictionary<string, Array> inputs, bool dequantize = false,
                             ulong fastBytes = 0, ulong slowBytes = 0)
        {
            TensorInfo[] specs = Inputs();
            var known = new HashSet<string>();
            foreach (TensorInfo s in specs) known.Add(s.Name);
            foreach (string name in inputs.Keys)
                if (!known.Contains(name)) throw Bad("no graph input named '" + name + "'");
            var pins = new List<GCHandle>();
            try
            {
                var ins = new NativeRun.RunIo[specs.Length];
                for (int i = 0; i < specs.Length; ++i)
                {
                    Array a;
                    if (!inputs.TryGetValue(specs[i].Name, out a)) throw Bad("graph input '" + specs[i].Name + "' is missing");
                    DType given = ArrayDType(a);
                    if (given != specs[i].DType && !(specs[i].DType == DType.Int8 && given == DType.Float32))
                        throw Bad("input '" + specs[i].Name + "' is " + specs[i].DType + "; got " + a.GetType().Name);
                    if (a.Length != specs[i].Elements)
                        throw Bad("input '" + specs[i].Name + "' needs " + specs[i].Elements + " elements, got " + a.Length);
                    GCHandle pin = GCHandle.Alloc(a, GCHandleType.Pinned);
                    pins.Add(pin);
                    ins[i] = new NativeRun.RunIo { version = 1, dtype = (int)given, data = pin.AddrOfPinnedObject(),
                                                   size = (UIntPtr)(ulong)(a.Length * ElementSize(given)) };
                }
                TensorInfo[] outSpecs = Outputs();
                var outs = new NativeRun.RunIo[outSpecs.Length];
                var result = new RunResult { Outputs = new Dictionary<string, Array>(), Shapes = new Dictionary<string, long[]>() };
                for (int i = 0; i < outSpecs.Length; ++i)
                {
                    DType d = outSpecs[i].DType;
                    if (dequantize && d == DType.Int8) d = DType.Float32;
                    Array a;
                    switch (d)
                    {
                        case DType.Float32: a = new float[outSpecs[i].Elements]; break;
                        case DType.Int8: a = new sbyte[outSpecs[i].Elements]; break;
                        case DType.UInt8: a = new byte[outSpecs[i].Elements]; break;
                        case DType.Int32: a = new int[outSpecs[i].Elements]; break;
                        default: throw Bad("output '" + outSpecs[i].Name + "' is " + d + ", which .NET arrays here do not hold");
                    }
                    GCHandle pin = GCHandle.Alloc(a, GCHandleType.Pinned);
                    pins.Add(pin);
                    outs[i] = new NativeRun.RunIo { version = 1, dtype = (int)d, data = pin.AddrOfPinnedObject(),
                                                    size = (UIntPtr)(ulong)(a.Length * ElementSize(d)) };
                    result.Outputs[outSpecs[i].Name] = a;
                    result.Shapes[outSpecs[i].Name] = outSpecs[i].Shape;
                }
                var options = new NativeRun.RunOptions { version = 1, fast_bytes = fastBytes, slow_bytes = slowBytes };
                var stats = new NativeRun.Stats { version = 1 };
                int status = NativeRun.tigris_plan_run(h, ref options, ins, (UIntPtr)(uint)ins.Length,
                                                       outs, (UIntPtr)(uint)outs.Length, ref stats);
                if (status != 0) throw new TigrisException(status, LastError());
                result.Stats = new RunStats
                {
                    FastArenaBytes = stats.fast_arena_bytes, SlowArenaBytes = stats.slow_arena_bytes,
                    FastHighWaterBytes = stats.fast_hwm_bytes, SlowHighWaterBytes = stats.slow_hwm_bytes,
                    RunSeconds = stats.run_seconds,
                };
                return result;
            }
            finally
            {
                foreach (GCHandle pin in pins) pin.Free();
            }
        }
    }

    public sealed partial class Model
    {
        TensorInfo[] Tensors(bool outputs)
        {
            int count = (int)(outputs ? tigris_c.tigris_model_output_count(h) : tigris_c.tigris_model_input_count(h));
            var list = new TensorInfo[count];
            for (uint i = 0; i < count; ++i)
            {
                uint index = (uint)(outputs ? tigris_c.tigris_model_output(h, i) : tigris_c.tigris_model_input(h, i));
                list[i] = TensorInfo.Read(info => tigris_c.tigris_model_tensor(h, index, info), () => tigris_c.tigris_model_last_error(h));
            }
            return list;
        }

        /// <summary>The normalized model's graph inputs, shapes as in the ONNX file.</summary>
        public TensorInfo[] Inputs() { return Tensors(false); }
        /// <summary>The normalized model's graph outputs.</summary>
        public TensorInfo[] Outputs() { return Tensors(true); }
    }
}
