// Rijndael: the class library's managed Rijndael (AES-256, CBC) encrypting a 2 KiB
// buffer ROUNDS times per iteration, each round's output the next round's input.
// A unit is one 16-byte block. Extra work: rounds + rounds * Config.ExtraPermille /
// 1000, a whole number by construction.
using System;
using System.Security.Cryptography;

static class Bench
{
    const int BufferBytes = 2048;
    const int BaseRounds = 100;
    const int Rounds = BaseRounds + BaseRounds * Config.ExtraPermille / 1000;
    static ICryptoTransform encryptor;
    static byte[] a, b;
    static long blocks;
    static ulong sum;

    public static long Units { get { return blocks; } }

    public static void Setup(ulong seed)
    {
        if (BaseRounds * Config.ExtraPermille % 1000 != 0)
            throw new InvalidOperationException("extra work is not a whole number of rounds");
        Inputs.State = seed;
        encryptor = RijndaelKey.Make().CreateEncryptor();
        a = new byte[BufferBytes];
        b = new byte[BufferBytes];
        RijndaelKey.Fill(a);
    }

    public static void Work()
    {
        for (int r = 0; r < Rounds; r++)
        {
            int done = encryptor.TransformBlock(a, 0, BufferBytes, b, 0);
            blocks += done / 16;
            var t = a; a = b; b = t;
        }
        sum = Inputs.Mix(sum, BitConverter.ToUInt64(a, 0));
    }

    public static long PeerCpu { get { return 0; } }
    public static ulong Checksum() { return sum; }
    public static int Serve() { return 2; }
    public static void Teardown() { }
}
