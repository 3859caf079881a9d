enum LanesPage { static let html = "<!doctype html><title>vivabridge</title>" }
