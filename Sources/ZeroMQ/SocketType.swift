import CZeroMQ

/// The kinds of libzmq socket this module offers.
public enum SocketType: Sendable, CaseIterable {
    case req, rep, dealer, router, pub, sub, push, pull, pair
    /// A PUB that also receives its subscribers' (un)subscriptions: `[1 or 0, prefix…]` frames.
    case xpub

    var rawValue: Int32 {
        switch self {
        case .req: ZMQ_REQ
        case .rep: ZMQ_REP
        case .dealer: ZMQ_DEALER
        case .router: ZMQ_ROUTER
        case .pub: ZMQ_PUB
        case .sub: ZMQ_SUB
        case .push: ZMQ_PUSH
        case .pull: ZMQ_PULL
        case .pair: ZMQ_PAIR
        case .xpub: ZMQ_XPUB
        }
    }
}
