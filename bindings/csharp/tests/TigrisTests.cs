// TigrisTests.cs: the C# binding against the `tigris` CLI on the same model and budgets (an
// independent client of the C ABI, so its output is the expected value).
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using Tigris;

public static class TigrisTests
{
    static string Env(string name)
    {
        string v = Environment.GetEnvironmentVariable(name);
        if (string.IsNullOrEmpty(v)) throw new Exception(name + " is not set (ctest sets it)");
        return v;
    }

    static string ModelPath { get { return Path.Combine(Env("TIGRIS_MODELS_DIR"), "onnx", "vww_mobilenetv1_025_96.onnx"); } }
    // The installed `tigris` when the test runs against an installed tree (TIGRIS_PREFIX).
    static string Cli
    {
        get
        {
            string prefix = Environment.GetEnvironmentVariable("TIGRIS_PREFIX");
            if (!string.IsNullOrEmpty(prefix)) return Path.Combine(prefix, "bin", "tigris");
            return Path.Combine(Env("TIGRIS_BUILD_DIR"), "bin", "tigris");
        }
    }

    static string RunCli(params string[] args)
    {
        var psi = new ProcessStartInfo(Cli, string.Join(" ", args.Select(a => "\"" + a + "\"")))
        {
            UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true,
        };
        using (var p = Process.Start(psi))
        {
            string output = p.StandardOutput.ReadToEnd();
            p.WaitForExit();
            Assert.Equal(0, p.ExitCode, "tigris " + args[0] + " exit code");
            return output;
        }
    }

    // The CLI prints the report pretty-printed with two-space indents (docs/json.md):
    // top-level keys sit at indent 2, keys of top-level objects at indent 4 and keys of the
    // objects in the "stages" array at indent 6. No JSON library ships with mono-mcs, so
    // the headline values are read by anchored patterns on that layout.
    static string Top(string json, string key, string indent = "  ")
    {
        Match m = Regex.Match(json, "^" + indent + "\"" + key + "\": \"?([^\",\\n]*)", RegexOptions.Multiline);
        Assert.True(m.Success, "CLI JSON has no " + key);
        return m.Groups[1].Value;
    }

    static int StageCount(string json)
    {
        int start = json.IndexOf("\n  \"stages\": [", StringComparison.Ordinal);
        int end = json.IndexOf("\n  ]", start, StringComparison.Ordinal);
        Assert.True(start >= 0 && end > start, "CLI JSON has a stages array");
        return Regex.Matches(json.Substring(start, end - start), "^      \"id\": ", RegexOptions.Multiline).Count;
    }

    public static void TestAnalyzeMatchesCli()
    {
        string cli = RunCli("analyze", ModelPath, "-m", "64K", "--json");
        using (Model m = Model.Load(ModelPath))
        using (Analysis a = m.Analyze("64K"))
        {
            Assert.Equal(Top(cli, "scheduled_peak_bytes"), a.ScheduledPeakBytes.ToString(), "scheduled_peak_bytes");
            Assert.Equal(Top(cli, "verdict"), a.Verdict == Verdict.NeedsWork ? "needs_work" : a.Verdict.ToString().ToLowerInvariant(), "verdict");
            Assert.Equal(StageCount(cli), a.StageCount, "stage count");
            Assert.Equal(Top(cli, "naive_peak_bytes", "    "), a.NaivePeakBytes.ToString(), "naive peak");
            Assert.Equal(cli.TrimEnd(), a.Json.TrimEnd(), "whole analysis JSON");
        }
    }

    // The verdict is a promise: weights over the flash budget make a plan whose stages fit
    // one that Compile refuses, so the analysis says NeedsWork and carries Compile's error.
    public static void TestRefusalIsCompilesError()
    {
        using (Model m = Model.Load(ModelPath))
        {
            using (Analysis refused = m.Analyze(64 * 1024, 0, 100 * 1024))
            {
                Assert.Equal(Verdict.NeedsWork, refused.Verdict, "verdict");
                Assert.True(refused.Refusal != null, "a refusal");
                Assert.Equal("TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL", refused.Refusal.StatusName, "status");
            }
            using (Analysis fits = m.Analyze("64K"))
            {
                Assert.True(fits.Refusal == null, "no refusal without a flash budget");
            }
        }
    }

    public static void TestExactLayoutMatchesCli()
    {
        string path = Path.Combine(Env("TIGRIS_MODELS_DIR"), "onnx", "cifar_mobilenet_relu6.onnx");
        string greedy = RunCli("analyze", path, "-m", "64M", "--json");
        string exact = RunCli("analyze", path, "-m", "64M", "--json", "--layout", "exact", "--time-limit", "30");
        using (Model m = Model.Load(path))
        using (Analysis a = m.Analyze(64UL << 20, layout: Layout.Exact, timeLimitSeconds: 30))
        {
            Assert.Equal(exact.TrimEnd(), a.Json.TrimEnd(), "whole analysis JSON, exact layout");
            Assert.True(a.ScheduledPeakBytes < ulong.Parse(Top(greedy, "scheduled_peak_bytes")),
                        "the exact layout packs tighter than greedy");
        }
    }

    public static void TestObjectiveMatchesCli()
    {
        string path = Path.Combine(Env("TIGRIS_MODELS_DIR"), "onnx", "kws_small_cnn.onnx");
        string cli = RunCli("analyze", path, "-m", "16K", "--json", "--objective", "memory");
        using (Model m = Model.Load(path))
        using (Analysis a = m.Analyze(16UL << 10, objective: Objective.Memory))
        using (Plan p = m.Plan(16UL << 10, true, objective: Objective.Memory))
        using (Plan once = m.Plan(16UL << 10, true))
        {
            Assert.Equal(Top(cli, "scheduled_peak_bytes"), a.ScheduledPeakBytes.ToString(), "scheduled_peak_bytes");
            Assert.True(a.Json.Contains("\"objective\": \"memory\""), "the analysis has the exploration");
            Assert.True(p.ExplorationJson.StartsWith("{"), "the plan has the exploration");
            Assert.Equal("null", once.ExplorationJson, "a one-pass plan has none");
        }
    }

    public static void TestPlanBytesMatchCliCompile()
    {
        string dir = Path.Combine(Path.GetTempPath(), "tigris-cs-" + Process.GetCurrentProcess().Id);
        Directory.CreateDirectory(dir);
        try
        {
            string outPath = Path.Combine(dir, "cli.tgrs");
            RunCli("compile", ModelPath, "-m", "64K", "--xip", "-o", outPath);
            byte[] want = File.ReadAllBytes(outPath);
            using (Model m = Model.Load(ModelPath))
            using (Plan p = m.Plan(Library.ParseSize("64K"), xip: true))
            {
                byte[] got = p.Emit();
                Assert.Equal((ulong)got.Length, p.FileBytes, "FileBytes");
                Assert.True(want.SequenceEqual(got), "plan bytes equal `tigris compile` (" + got.Length + " vs " + want.Length + ")");
            }
        }
        finally { Directory.Delete(dir, true); }
    }

    const string Part = "memories:\n  - {name: DTCM, size: 64K}\n  - {name: SRAM, size: 512K}\n" +
                        "  - {name: FLASH, size: 4M, read_only: true}\n";
    const string Rules = "tensors:\n  - type: CONSTANT\n    attributes: { memory: FLASH }\n" +
                         "  - id: no_such_tensor\n    attributes: { memory: SRAM }\n";

    public static void TestPlanForTargetMatchesCliCompile()
    {
        string dir = Path.Combine(Path.GetTempPath(), "tigris-cs-target-" + Process.GetCurrentProcess().Id);
        Directory.CreateDirectory(dir);
        try
        {
            string part = Path.Combine(dir, "part.yaml"), rules = Path.Combine(dir, "rules.yaml");
            File.WriteAllText(part, Part);
            File.WriteAllText(rules, Rules);
            string outPath = Path.Combine(dir, "cli.tgrs");
            string printed = RunCli("compile", ModelPath, "--target", part, "--rules", rules, "-o", outPath);
            byte[] want = File.ReadAllBytes(outPath);
            using (Model m = Model.Load(ModelPath))
            using (Plan p = m.PlanForTarget(Part, part, Rules, rules))
            {
                Assert.True(want.SequenceEqual(p.Emit()), "plan bytes equal `tigris compile --target --rules`");
                foreach (string name in new[] { "DTCM", "SRAM", "FLASH" })
                {
                    string line = printed.Split('\n').First(l => l.StartsWith(name + " "));
                    string used = line.Split(new[] { ' ' }, StringSplitOptions.RemoveEmptyEntries)[2];
                    Assert.True(p.MemoriesJson.Contains("\"name\":\"" + name + "\",\"size\":") &&
                                p.MemoriesJson.Contains("\"used_bytes\":" + used + ","),
                                name + " used " + used + " in " + p.MemoriesJson);
                }
                Assert.Equal(1, p.Warnings.Length, "one warning");
                Assert.True(p.Warnings[0].Contains("id 'no_such_tensor' matches no tensor"), p.Warnings[0]);
            }
        }
        finally { Directory.Delete(dir, true); }
    }

    public static void TestBadTargetThrowsInvalidArgument()
    {
        using (Model m = Model.Load(ModelPath))
        {
            Throws(Status.InvalidArgument, "part.yaml:2:",
                   () => m.PlanForTarget("memories:\n  - {name: DTCM}\n", "part.yaml").Dispose());
        }
    }

    public static void TestBadPathThrowsIO()
    {
        try
        {
            Model.Load("/nonexistent/dir/model.onnx").Dispose();
            throw new Exception("no exception");
        }
        catch (TigrisException e)
        {
            Assert.Equal(2, (int)e.Status, "status (TIGRIS_ERR_IO = 2, pinned in tigris.h)");
            Assert.Equal("TIGRIS_ERR_IO", e.StatusName, "status name");
            Assert.True(e.Detail.Length > 0, "message present");
        }
    }

    public static void TestEmptyBytesThrowsEmptyModel()
    {
        try
        {
            Model.FromBytes(new byte[0]).Dispose();
            throw new Exception("no exception");
        }
        catch (TigrisException e) { Assert.Equal(Status.EmptyModel, e.Status, "status"); }
    }

    public static void TestFromBytesEqualsLoad()
    {
        using (Model a = Model.FromBytes(File.ReadAllBytes(ModelPath)))
        using (Model b = Model.Load(ModelPath))
        using (Analysis x = a.Analyze(64UL * 1024))
        using (Analysis y = b.Analyze("64K"))
            Assert.Equal(y.Json, x.Json, "analysis of bytes vs path");
    }

    public static void TestParseSize()
    {
        Assert.Equal(262144UL, Library.ParseSize("256K"), "256K");     // K = 1024
        Assert.Equal(1572864UL, Library.ParseSize("1.5MiB"), "1.5MiB"); // 1.5 * 1024^2
        try { Library.ParseSize("lots"); throw new Exception("no exception"); }
        catch (TigrisException e) { Assert.Equal(Status.InvalidArgument, e.Status, "status"); }
    }

    public static void TestDisposeTwiceAndUseAfterDispose()
    {
        Model m = Model.Load(ModelPath);
        m.Dispose();
        m.Dispose();
        try { m.Analyze(1024); throw new Exception("no exception"); }
        catch (ObjectDisposedException) { }
    }

    // ---- plans as values: Plan.Run against `tigris run`, I/O against mnist8.onnx -------------

    static string Mnist8 { get { return Path.Combine(Env("TIGRIS_MODELS_DIR"), "onnx", "mnist8.onnx"); } }

    // A float32 .npy (format 1.0).
    static byte[] Npy(long[] shape, float[] values)
    {
        string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + string.Join(", ", shape) + ",), }";
        while ((10 + header.Length + 1) % 64 != 0) header += " ";
        header += "\n";
        var ms = new MemoryStream();
        ms.Write(new byte[] { 0x93, (byte)'N', (byte)'U', (byte)'M', (byte)'P', (byte)'Y', 1, 0 }, 0, 8);
        ms.Write(BitConverter.GetBytes((ushort)header.Length), 0, 2);
        byte[] h = System.Text.Encoding.ASCII.GetBytes(header);
        ms.Write(h, 0, h.Length);
        foreach (float v in values) ms.Write(BitConverter.GetBytes(v), 0, 4);
        return ms.ToArray();
    }

    static byte[] NpyData(byte[] raw)
    {
        int start = raw[6] == 1 ? 10 + BitConverter.ToUInt16(raw, 8) : 12 + (int)BitConverter.ToUInt32(raw, 8);
        return raw.Skip(start).ToArray();
    }

    public static void TestInputsAndOutputsAreTheOnnxDeclarations()
    {
        // mnist8.onnx declares input Input3 [1,1,28,28] and output Plus214_Output_0 [1,10], float.
        using (Model m = Model.Load(Mnist8))
        using (Plan p = m.Plan(64 << 10, true))
        {
            foreach (TensorInfo[] ins in new[] { m.Inputs(), p.Inputs() })
            {
                Assert.Equal(1, ins.Length, "input count");
                Assert.Equal("Input3", ins[0].Name, "input name");
                Assert.Equal(DType.Float32, ins[0].DType, "input dtype");
                Assert.Equal("1,1,28,28", string.Join(",", ins[0].Shape), "input shape");
            }
            foreach (TensorInfo[] outs in new[] { m.Outputs(), p.Outputs() })
            {
                Assert.Equal("Plus214_Output_0", outs[0].Name, "output name");
                Assert.Equal("1,10", string.Join(",", outs[0].Shape), "output shape");
            }
        }
    }

    public static void TestRunEqualsCliRun()
    {
        string dir = Path.Combine(Path.GetTempPath(), "tigris_cs_run_" + Process.GetCurrentProcess().Id);
        Directory.CreateDirectory(dir);
        var x = new float[28 * 28];
        for (int i = 0; i < x.Length; ++i) x[i] = (float)Math.Sin(0.37 * i);
        using (Model m = Model.Load(Mnist8))
        using (Plan p = m.Plan(16 << 10, true))  // tiled
        {
            string planPath = Path.Combine(dir, "p.tgrs");
            p.Save(planPath);
            File.WriteAllBytes(Path.Combine(dir, "x.npy"), Npy(new long[] { 1, 1, 28, 28 }, x));
            RunCli("run", planPath, "--input", Path.Combine(dir, "x.npy"), "--output", Path.Combine(dir, "y.npy"));
            byte[] want = NpyData(File.ReadAllBytes(Path.Combine(dir, "y.npy")));
            using (Plan loaded = Plan.Load(planPath))
            using (Plan fromBytes = Plan.FromBytes(p.Emit()))
            {
                foreach (Plan plan in new[] { p, loaded, fromBytes })
                {
                    RunResult r = plan.Run(new Dictionary<string, Array> { { "Input3", x } });
                    var y = (float[])r.Outputs["Plus214_Output_0"];
                    byte[] got = y.SelectMany(v => BitConverter.GetBytes(v)).ToArray();
                    Assert.True(got.SequenceEqual(want), "Run bytes equal `tigris run`");
                    Assert.Equal(plan.FastArenaBytes, (r.Stats.FastHighWaterBytes + 15) / 16 * 16, "fast high-water mark");
                }
            }
        }
        Directory.Delete(dir, true);
    }

    static void Throws(Status status, string part, Action f)
    {
        try { f(); }
        catch (TigrisException e)
        {
            Assert.Equal(status, e.Status, "status of " + part);
            Assert.True(e.Message.Contains(part), "message has '" + part + "': " + e.Message);
            return;
        }
        throw new Exception("no TigrisException for " + part);
    }

    public static void TestBadRunsAndPlansThrow()
    {
        using (Model m = Model.Load(Mnist8))
        using (Plan p = m.Plan(64 << 10, true))
        {
            var x = new float[784];
            Throws(Status.InvalidArgument, "is missing", () => p.Run(new Dictionary<string, Array>()));
            Throws(Status.InvalidArgument, "no graph input named 'nope'",
                   () => p.Run(new Dictionary<string, Array> { { "Input3", x }, { "nope", x } }));
            Throws(Status.InvalidArgument, "needs 784 elements, got 3",
                   () => p.Run(new Dictionary<string, Array> { { "Input3", new float[3] } }));
            Throws(Status.InvalidArgument, "TGRS_ERR_ARENA_TOO_SMALL",
                   () => p.Run(new Dictionary<string, Array> { { "Input3", x } }, false, 16));
            byte[] data = p.Emit();
            data[5] ^= 0x20;  // the file identifier "TGRS"
            Throws(Status.InvalidPlan, "TGRS_ERR_BAD_IDENTIFIER", () => Plan.FromBytes(data));
            Throws(Status.IO, "/nonexistent.tgrs", () => Plan.Load("/nonexistent.tgrs"));
        }
    }
}
