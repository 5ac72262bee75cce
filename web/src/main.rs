fn main() {
    // The full app (a page opened from a permalink or with ?embed boots from the public
    // rollout-lab module instead; see index.html).
    rollout_web::share::start_app();
}
