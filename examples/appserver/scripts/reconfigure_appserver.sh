#!/bin/bash
# UPDATE: rewrite the configuration of the installed application server.
set -euo pipefail
if [ ! -f appserver/server.conf ]; then
    echo "the application server is not installed" >&2
    exit 3
fi
sed -i \
    -e "s/^http_port=.*/http_port=${http_port}/" \
    -e "s/^https_port=.*/https_port=${https_port}/" \
    -e "s/^connection_timeout=.*/connection_timeout=${default_con_timeout}/" \
    appserver/server.conf
echo "reconfigured the application server (action ${deploy_action})"
echo -n "http://localhost:${http_port}/" > "${heat_outputs_path}.root_url"
