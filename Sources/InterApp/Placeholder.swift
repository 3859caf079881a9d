// InterApp
