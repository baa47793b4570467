// Timing harness shared by every Mono benchmark (the counterpart of ../../src/harness.c).
//
//   mono bench.exe N          run N iterations; print one line "t <ns> <cpu ns>" per
//                             iteration (after the last one, so that printing does not
//                             disturb the timing), then "units <per iteration>" and
//                             "checksum <hex>"
//   mono bench.exe --count    run one iteration, print "units" and "checksum" only
//   mono bench.exe --serve    the server half of the ping benchmarks (started by the
//                             client itself; never run by hand)
//
// Each iteration is timed with clock_gettime(CLOCK_MONOTONIC) and, for the CPU time,
// CLOCK_PROCESS_CPUTIME_ID (all threads of the process: JIT, GC and finalizer
// threads included), called through P/Invoke so that both clocks are the C
// harness's. The ping benchmarks add their server's CPU time (Bench.PeerCpu, which
// the server sends with every reply), so that an iteration's CPU time is the pair's.
// Exit status 2 on a bad argument.
using System;
using System.Runtime.InteropServices;
using System.Text;

static class Harness
{
    [StructLayout(LayoutKind.Sequential)]
    struct Timespec { public long Sec; public long Nsec; }

    [DllImport("libc", EntryPoint = "clock_gettime")]
    static extern int ClockGettime(int clock, out Timespec ts);

    const int Monotonic = 1, ProcessCpu = 2;

    public static long ProcessCpuNow() { return Now(ProcessCpu); }

    static long Now(int clock)
    {
        Timespec ts;
        ClockGettime(clock, out ts);
        return ts.Sec * 1000000000L + ts.Nsec;
    }

    static int Main(string[] args)
    {
        Pad.Warm();  // this build's layout padding (Pad.cs, generated per build)
        if (args.Length == 1 && args[0] == "--serve")
            return Bench.Serve();
        if (args.Length == 1 && args[0] == "--count")
        {
            Bench.Setup(Config.InputSeed);
            long before = Bench.Units;
            Bench.Work();
            Console.Write("units " + (Bench.Units - before) + "\nchecksum " + Bench.Checksum().ToString("x16") + "\n");
            Bench.Teardown();
            return 0;
        }
        int n;
        if (args.Length != 1 || !int.TryParse(args[0], System.Globalization.NumberStyles.None,
                                              System.Globalization.CultureInfo.InvariantCulture, out n)
            || n < 1 || n > 1000000)
        {
            Console.Error.WriteLine("usage: bench.exe ITERATIONS (1..1000000) | --count");
            return 2;
        }
        long[] times = new long[n], cpu = new long[n];
        Now(Monotonic); Now(ProcessCpu);  // bind the P/Invoke stubs before the first iteration
        Bench.Setup(Config.InputSeed);
        long start = Bench.Units;
        for (int i = 0; i < n; i++)
        {
            long c0 = Now(ProcessCpu) + Bench.PeerCpu;
            long t0 = Now(Monotonic);
            Bench.Work();
            long t1 = Now(Monotonic);
            long c1 = Now(ProcessCpu) + Bench.PeerCpu;
            times[i] = t1 - t0;
            cpu[i] = c1 - c0;
        }
        long units = (Bench.Units - start) / n;
        var sb = new StringBuilder(n * 24 + 64);
        for (int i = 0; i < n; i++)
            sb.Append("t ").Append(times[i]).Append(' ').Append(cpu[i]).Append('\n');
        sb.Append("units ").Append(units).Append("\nchecksum ").Append(Bench.Checksum().ToString("x16")).Append('\n');
        Console.Write(sb.ToString());
        Bench.Teardown();
        return 0;
    }
}

// A 64-bit generator for inputs (splitmix64): the same inputs in every build.
static class Inputs
{
    public static ulong State;

    public static ulong Next()
    {
        ulong z = (State += 0x9E3779B97F4A7C15UL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
        return z ^ (z >> 31);
    }

    public static double Uniform() { return (Next() >> 11) * (1.0 / 9007199254740992.0); }

    // FNV-1a style mixing of 64-bit words into a checksum.
    public static ulong Mix(ulong h, ulong v) { return (h ^ v) * 0x100000001B3UL; }
}
