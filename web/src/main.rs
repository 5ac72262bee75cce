fn main() {
    // The full app, from the permalink in the address if any (panic hook included).
    rollout_web::share::start_app();
}
