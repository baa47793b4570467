// The butterfly stages of a radix-2 complex FFT on interleaved (re, im) doubles,
// after SciMark 2.0's FFT kernel (the algorithm, written anew).
static class FftCore
{
    public static long Transforms;

    public static void Transform(double[] data, double[] cos, double[] sin, bool inverse)
    {
        int n = data.Length / 2;
        FftBitrev.Reverse(data, n);
        double sign = inverse ? -1.0 : 1.0;
        for (int len = 2; len <= n; len <<= 1)
        {
            int half = len / 2, step = n / len;
            for (int i = 0; i < n; i += len)
            {
                for (int j = 0; j < half; j++)
                {
                    double wr = cos[j * step], wi = sign * sin[j * step];
                    int a = 2 * (i + j), b = 2 * (i + j + half);
                    double xr = data[b] * wr - data[b + 1] * wi;
                    double xi = data[b] * wi + data[b + 1] * wr;
                    data[b] = data[a] - xr;
                    data[b + 1] = data[a + 1] - xi;
                    data[a] += xr;
                    data[a + 1] += xi;
                }
            }
        }
        if (inverse)
        {
            double s = 1.0 / n;
            for (int k = 0; k < data.Length; k++)
                data[k] *= s;
        }
        Transforms++;
    }
}
