import ArgumentParser

VivabridgeCommand.main()
