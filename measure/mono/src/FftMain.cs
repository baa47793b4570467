// FFT and FFT NA: ROUNDS forward + inverse transforms of a 1024-point complex signal
// per iteration. FFT copies the signal into a new buffer every round (allocation and
// garbage collection are part of the work); FFT NA ("no allocation") transforms one
// buffer, allocated once per execution. Extra work (known effects): rounds + rounds *
// Config.ExtraPermille / 1000, a whole number by construction.
using System;

static class Bench
{
    const int Points = 1024;
    const int BaseRounds = 100;
    const int Rounds = BaseRounds + BaseRounds * Config.ExtraPermille / 1000;
    static double[] signal, buffer, cos, sin;
    static ulong sum;

    public static long Units { get { return FftCore.Transforms; } }

    public static void Setup(ulong seed)
    {
        if (BaseRounds * Config.ExtraPermille % 1000 != 0)
            throw new InvalidOperationException("extra work is not a whole number of rounds");
        Inputs.State = seed;
        signal = new double[2 * Points];
        for (int k = 0; k < signal.Length; k++)
            signal[k] = Inputs.Uniform() - 0.5;
        buffer = (double[])signal.Clone();
        FftBitrev.Twiddles(Points, out cos, out sin);
    }

    public static void Work()
    {
        for (int r = 0; r < Rounds; r++)
        {
            double[] d;
            if (Config.Allocate)
            {
                d = new double[signal.Length];
                Array.Copy(signal, d, signal.Length);
            }
            else
                d = buffer;
            FftCore.Transform(d, cos, sin, false);
            FftCore.Transform(d, cos, sin, true);
            sum = Inputs.Mix(sum, (ulong)BitConverter.DoubleToInt64Bits(Math.Round(d[r % d.Length], 9)));
        }
    }

    public static long PeerCpu { get { return 0; } }
    public static ulong Checksum() { return sum; }
    public static int Serve() { return 2; }
    public static void Teardown() { }
}
