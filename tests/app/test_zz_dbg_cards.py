from tests.app.test_recruiter_cards import *  # noqa
def test_dbg(page, data_dir):
    app = start(page, "Clean up the pipeline")
    click(app, "Approve")
    boxes = picks(app)
    boxes[0].check().run()
    b = card_button(app, "Carry out 1 selected")
    print("KEY", b.key, b.disabled)
    b.click().run()
    print("SS", {k: v for k, v in app.session_state.filtered_state.items() if "request" in k})
    print("EXC", [e.value for e in app.exception])
    settle(app)
    print("ALL", [x.value for x in app.error], [x.value for x in app.warning], [x.value for x in app.success])
