// TCP Ping and HTTP Ping: two processes on the loopback. The measured process starts
// the server half as a child (the same assembly with --serve and the same runtime
// options), which listens on 127.0.0.1 on a port of the kernel's choice and prints it.
// An iteration is ROUNDS round trips (100 for TCP, 20 for HTTP): TCP sends 64 bytes and reads the 64-byte echo;
// HTTP sends a GET with keep-alive and reads a 64-byte body. A unit is a round trip.
// The last 8 bytes of every reply carry the server's CPU time (ns) when it replied:
// the harness adds it to the client's, so an iteration's CPU time is the pair's.
using System;
using System.Diagnostics;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Text;

static class Bench
{
    const int BaseRounds = Config.Variant == "tcp" ? 100 : 20;
    const int Rounds = BaseRounds + BaseRounds * Config.ExtraPermille / 1000;
    const int Message = 64;
    static Process server;
    static Socket socket;
    static byte[] send = new byte[Message], recv = new byte[Message];
    static string url;
    static long trips, peerCpu;
    static ulong sum;

    public static long Units { get { return trips; } }
    public static long PeerCpu { get { return peerCpu; } }

    public static void Setup(ulong seed)
    {
        Inputs.State = seed;
        RandomBytes(send);
        var self = Environment.GetCommandLineArgs()[0];
        var psi = new ProcessStartInfo(Config.MonoPath, PingProtocol.RuntimeOptions() + "\"" + self + "\" --serve");
        psi.UseShellExecute = false;
        psi.RedirectStandardOutput = true;
        psi.RedirectStandardInput = true;
        server = Process.Start(psi);
        int port = int.Parse(server.StandardOutput.ReadLine());
        if (Config.Variant == "tcp")
        {
            socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            socket.NoDelay = true;
            socket.Connect(new IPEndPoint(IPAddress.Loopback, port));
        }
        else
        {
            ServicePointManager.DefaultConnectionLimit = 4;
            url = "http://127.0.0.1:" + port + "/ping";
        }
        RoundTrip();  // connected, and the server's CPU clock read once (not counted)
    }

    static void RandomBytes(byte[] b)
    {
        for (int i = 0; i < b.Length; i++)
            b[i] = (byte)(33 + Inputs.Next() % 90);
    }

    static void RoundTrip()
    {
        if (Config.Variant == "tcp")
        {
            PingProtocol.SendAll(socket, send);
            PingProtocol.ReceiveAll(socket, recv);
        }
        else
        {
            var req = (HttpWebRequest)WebRequest.Create(url);
            req.KeepAlive = true;
            using (var resp = (HttpWebResponse)req.GetResponse())
            using (var s = resp.GetResponseStream())
                PingProtocol.ReadAll(s, recv);
        }
        peerCpu = BitConverter.ToInt64(recv, Message - 8);
    }

    public static void Work()
    {
        for (int r = 0; r < Rounds; r++)
        {
            RoundTrip();
            trips++;
            sum = Inputs.Mix(sum, BitConverter.ToUInt64(recv, r % (Message - 16)));
        }
    }

    public static ulong Checksum() { return sum; }

    public static void Teardown()
    {
        if (socket != null)
            socket.Close();
        server.StandardInput.Close();  // the server ends when its input closes
        server.WaitForExit();
    }

    public static int Serve()
    {
        Inputs.State = Config.InputSeed;
        var reply = new byte[Message];
        RandomBytes(reply);
        if (Config.Variant == "tcp")
            return PingProtocol.ServeTcp();
        return PingProtocol.ServeHttp(reply);
    }
}
