await VivabridgeCommand.main()
