import AdapterKit
