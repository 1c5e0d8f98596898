module spotcheck.invalid/foreign/govenue

go 1.19
