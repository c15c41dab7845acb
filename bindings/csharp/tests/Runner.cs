// Runner.cs: a tiny test runner (no NUnit on Debian's mono-mcs): runs every public static
// void method of TigrisTests whose name starts with "Test", prints each result and the
// closing line "N passed, N failed", and exits 1 on any failure.
using System;
using System.Reflection;

static class Runner
{
    static int Main()
    {
        int passed = 0, failed = 0;
        foreach (MethodInfo m in typeof(TigrisTests).GetMethods(BindingFlags.Public | BindingFlags.Static))
        {
            if (!m.Name.StartsWith("Test")) continue;
            try
            {
                m.Invoke(null, null);
                Console.WriteLine("PASS " + m.Name);
                passed++;
            }
            catch (TargetInvocationException e)
            {
                Console.WriteLine("FAIL " + m.Name + ": " + e.InnerException);
                failed++;
            }
        }
        Console.WriteLine(passed + " passed, " + failed + " failed");
        return failed == 0 && passed > 0 ? 0 : 1;
    }
}

static class Assert
{
    public static void Equal<T>(T want, T got, string what)
    {
        if (!Equals(want, got)) throw new Exception(what + ": want " + want + ", got " + got);
    }

    public static void True(bool cond, string what)
    {
        if (!cond) throw new Exception(what);
    }
}
