fn main() {
    yew::Renderer::<rollout_web::App>::new().render();
}
