-- wrk script (Wrk.post in the bench module, for bench/requests.sh): every call is a POST of the JSON
-- body found in the environment variable WRK_BODY; other headers come from wrk's -H arguments.
wrk.method = "POST"
wrk.body = os.getenv("WRK_BODY")
wrk.headers["Content-Type"] = "application/json"
