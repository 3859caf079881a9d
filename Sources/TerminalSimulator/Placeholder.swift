// TerminalSimulator
