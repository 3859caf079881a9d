/// The core's public types (a lane's configuration, the journal's records) and the journal's stores and tools
/// (SQLite's and PostgreSQL's, export, backup, fill-gap) are part of this module's API.
@_exported import BridgeCore
@_exported import BridgeJournal
@_exported import BridgeObservability
@_exported import JournalPostgres
@_exported import JournalSQLite
