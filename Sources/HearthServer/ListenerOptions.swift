import NIOCore
import NIOPosix

/// The IRC listeners' socket options, one list for NIO's bootstrap (`HearthServer.bootstrap`)
/// and `--io epoll`'s own listener: both ports behave alike whichever layer serves them.
enum ListenerOptions {
    typealias Option = (level: NIOBSDSocket.OptionLevel, name: NIOBSDSocket.Option)

    /// Connections the kernel queues before they are accepted.
    static let backlog: Int32 = 1024
    /// The listening socket's (each set to 1): a restarted server binds its port at once, past
    /// the last run's connections in TIME_WAIT.
    static let listening: [Option] = [(.socket, .so_reuseaddr)]
    /// Each accepted connection's (each set to 1): keepalive finds peers that vanished; no
    /// Nagle delay for short lines.
    static let accepted: [Option] = [(.socket, .so_keepalive), (.tcp, .tcp_nodelay)]

    /// `option` as NIO's channel option.
    static func channelOption(_ option: Option) -> ChannelOptions.Types.SocketOption {
        ChannelOptions.Types.SocketOption(level: option.level, name: option.name)
    }
}

extension ServerBootstrap {
    /// The listening socket's and each connection's options of `ListenerOptions`.
    func listenerOptions() -> ServerBootstrap {
        var bootstrap = serverChannelOption(ChannelOptions.backlog, value: ListenerOptions.backlog)
        for option in ListenerOptions.listening {
            bootstrap = bootstrap.serverChannelOption(ListenerOptions.channelOption(option), value: 1)
        }
        for option in ListenerOptions.accepted {
            bootstrap = bootstrap.childChannelOption(ListenerOptions.channelOption(option), value: 1)
        }
        return bootstrap
    }
}
