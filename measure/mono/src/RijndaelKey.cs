// The key, IV and plaintext of the Rijndael benchmark, drawn from the input seed.
using System.Security.Cryptography;

static class RijndaelKey
{
    public static SymmetricAlgorithm Make()
    {
        var aes = new RijndaelManaged();
        aes.BlockSize = 128;
        aes.KeySize = 256;
        aes.Mode = CipherMode.CBC;
        aes.Padding = PaddingMode.None;
        var key = new byte[32];
        var iv = new byte[16];
        Fill(key);
        Fill(iv);
        aes.Key = key;
        aes.IV = iv;
        return aes;
    }

    public static void Fill(byte[] b)
    {
        for (int i = 0; i < b.Length; i++)
            b[i] = (byte)Inputs.Next();
    }
}
