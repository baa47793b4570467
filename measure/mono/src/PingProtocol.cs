// The ping benchmarks' two halves: whole-message sends and reads, and the servers.
using System;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Threading;

static class PingProtocol
{
    // The runtime options the client was started with (-O=all), passed to the server.
    public static string RuntimeOptions()
    {
        return Config.RuntimeOptions.Length == 0 ? "" : Config.RuntimeOptions + " ";
    }

    public static void SendAll(Socket s, byte[] b)
    {
        int off = 0;
        while (off < b.Length)
            off += s.Send(b, off, b.Length - off, SocketFlags.None);
    }

    public static bool ReceiveAll(Socket s, byte[] b)
    {
        int off = 0;
        while (off < b.Length)
        {
            int got = s.Receive(b, off, b.Length - off, SocketFlags.None);
            if (got == 0)
                return false;
            off += got;
        }
        return true;
    }

    public static void ReadAll(Stream s, byte[] b)
    {
        int off = 0;
        while (off < b.Length)
        {
            int got = s.Read(b, off, b.Length - off);
            if (got == 0)
                throw new IOException("short HTTP body");
            off += got;
        }
    }

    // The server's CPU time so far into the last 8 bytes of a reply.
    static void StampCpu(byte[] b)
    {
        var cpu = BitConverter.GetBytes(Harness.ProcessCpuNow());
        Buffer.BlockCopy(cpu, 0, b, b.Length - 8, 8);
    }

    static void ExitWhenInputCloses()
    {
        var t = new Thread(() => { Console.In.ReadToEnd(); Environment.Exit(0); });
        t.IsBackground = true;
        t.Start();
    }

    public static int ServeTcp()
    {
        var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        Console.WriteLine(((IPEndPoint)listener.LocalEndpoint).Port);
        Console.Out.Flush();
        ExitWhenInputCloses();
        using (var s = listener.AcceptSocket())
        {
            s.NoDelay = true;
            var b = new byte[64];
            while (ReceiveAll(s, b))
            {
                StampCpu(b);
                SendAll(s, b);
            }
        }
        return 0;
    }

    public static int ServeHttp(byte[] reply)
    {
        // a free port: bind one with a socket, release it, hand it to HttpListener
        var probe = new TcpListener(IPAddress.Loopback, 0);
        probe.Start();
        int port = ((IPEndPoint)probe.LocalEndpoint).Port;
        probe.Stop();
        var http = new HttpListener();
        http.Prefixes.Add("http://127.0.0.1:" + port + "/");
        http.Start();
        Console.WriteLine(port);
        Console.Out.Flush();
        ExitWhenInputCloses();
        while (true)
        {
            var ctx = http.GetContext();
            ctx.Response.ContentLength64 = reply.Length;
            ctx.Response.KeepAlive = true;
            StampCpu(reply);
            ctx.Response.OutputStream.Write(reply, 0, reply.Length);
            ctx.Response.OutputStream.Close();
        }
    }
}
