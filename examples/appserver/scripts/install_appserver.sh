#!/bin/bash
# CREATE: install the application server and write its configuration.
set -euo pipefail
mkdir -p appserver
cat > appserver/server.conf <<CONF
http_port=${http_port}
https_port=${https_port}
connection_timeout=${default_con_timeout}
CONF
echo "installed the application server (action ${deploy_action}, status ${deploy_status})"
echo -n "https://localhost:${https_port}/admin" > "${heat_outputs_path}.admin_url"
echo -n "http://localhost:${http_port}/" > "${heat_outputs_path}.root_url"
