/// A journal's identity: an id written into its `meta` table when it is created, and recorded beside it
/// in the `.identity` file (``JournalIdentityFile``). The bridge compares the two at every start, so that a
/// journal swapped for another one (another store's, another folder's) is refused rather than served.
package enum JournalIdentity {
    /// The `meta` key that holds the id.
    package static let metaKey = "journal_id"
}
