// Bridge
