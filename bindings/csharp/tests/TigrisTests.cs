// TigrisTests.cs: the C# binding against the `tigris` CLI on the same model and budgets (an
// independent client of the C ABI, so its output is the expected value).
using System;
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
    static string Cli { get { return Path.Combine(Env("TIGRIS_BUILD_DIR"), "bin", "tigris"); } }

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
}
