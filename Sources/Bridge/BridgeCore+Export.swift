/// The core's public types (a lane's configuration, the journal's records) are part of this module's API.
@_exported import BridgeCore
