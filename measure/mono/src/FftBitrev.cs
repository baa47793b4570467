// Bit-reversal permutation and twiddle factors of the FFT.
using System;

static class FftBitrev
{
    public static void Reverse(double[] data, int n)
    {
        for (int i = 0, j = 0; i < n - 1; i++)
        {
            if (i < j)
            {
                double tr = data[2 * i], ti = data[2 * i + 1];
                data[2 * i] = data[2 * j]; data[2 * i + 1] = data[2 * j + 1];
                data[2 * j] = tr; data[2 * j + 1] = ti;
            }
            int k = n >> 1;
            while (k <= j) { j -= k; k >>= 1; }
            j += k;
        }
    }

    public static void Twiddles(int n, out double[] cos, out double[] sin)
    {
        cos = new double[n / 2];
        sin = new double[n / 2];
        for (int k = 0; k < n / 2; k++)
        {
            cos[k] = Math.Cos(-2.0 * Math.PI * k / n);
            sin[k] = Math.Sin(-2.0 * Math.PI * k / n);
        }
    }
}
