/// Viva's records and a cloud session's rules, as values, are part of this module's API.
@_exported import VivaCloudModels
