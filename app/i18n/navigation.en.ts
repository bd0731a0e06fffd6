/** English messages of the app's frame: navigation and the first-run empty states. Spread into en.ts. */
export const navigationEn = {
  "nav.more": "Activity and imports",
  "empty.connect.title": "Connect your platform first",
  "empty.connect.action": "Connect in Settings",
  "empty.connect.orders":
    "Enter your COD platform's key in Settings: your cash-on-delivery orders then appear here as they become leads.",
  "empty.connect.anomalies":
    "Enter your COD platform's key in Settings: orders that need you will then appear here, grouped by cause.",
  "empty.connect.home":
    "Enter your COD platform's key in Settings to start sending your cash-on-delivery orders as leads.",
  "empty.importPast": "Import past orders",
  "modal.cancel": "Cancel",
  "settings.maintenance.title": "Maintenance",
  "settings.maintenance.activity": "Sync health, jobs, platform calls and customer data requests.",
  "settings.maintenance.backfill": "Bring orders placed before the app was installed.",
} as const;
